"""Game options: every variant the write-ups offer, named once, for every format.

Players choose options when they create a game or a league (``!auction new 2 boards timer=45 empty=draw``,
``!autobattler start poison=flat2 interest=5 carousel``); the operator sets room defaults with ``bot run
--option auction.timer=60``; ``!rules`` shows the format in plain words (:data:`FORMAT_PITCH`, the one
place each format is explained) and the options in force. This module is the one list of them and the one
grammar:

* an argument ``key=value`` sets an option (``timer=45``, ``empty=draw``, ``boards=off``);
* a bare word that names an option is a flag: ``boards`` (on/off options) or ``carousel`` (an option with a
  value for the bare word);
* anything else is not an option (the room command reads it: a player count, a block name).

Each :class:`Option` sets fields of the format's *table options* (the dataclass the bot journals with the
table: ``AuctionOptions``, ``VortexOptions``, ``CombatOptions``, ``LeagueOptions``); those fields carry the
names of the engine config fields they feed (``one_round_bidding``, ``both_players_draw``...), so there is one
setting per rule, not a copy. :func:`in_force` reads the options back from such an object, so a restored table
shows what it was created with. Pure: no I/O, no bot imports.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cockatrice_ext.formats import FORMAT_TITLES
from cockatrice_ext.formats.auction import MAX_STARTING_GOLD
from cockatrice_ext.formats.league import BYE_RESULTS

ON_WORDS = ("on", "yes", "true", "1")
OFF_WORDS = ("off", "no", "false", "0")


class OptionError(ValueError):
    """An option argument that does not parse; the message is one line for the player."""


def _echo(text: str) -> str:
    """Untrusted text quoted back in a message: one line, at most 30 characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= 30 else flat[:29] + "…"


@dataclass(frozen=True)
class Option:
    """One named game option.

    ``kind`` is ``"int"``, ``"bool"`` or ``"choice"``. An int or bool option sets the table-options field
    ``target``; a choice sets the fields of ``choices[value]``. ``flag`` is the value a bare ``name`` means
    (``True`` for bools; ``None``: the option needs ``name=value``). An int option with ``off`` accepts
    ``off`` for that number (``timer=off`` is ``timer=0``).
    """

    name: str
    kind: str
    default: Any
    help: str
    target: str = ""
    choices: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    low: int = 0
    high: int = 0
    off: int | None = None
    flag: Any = None

    def parse(self, text: str) -> Any:
        """The value ``text`` stands for.

        Raises:
            OptionError: not a value of this option.
        """
        word = text.strip().lower()
        if self.kind == "bool":
            if word in ON_WORDS:
                return True
            if word in OFF_WORDS:
                return False
            raise OptionError(f"{self.name}={_echo(text)}: say {self.name}=on or {self.name}=off")
        if self.kind == "choice":
            if word in self.choices:
                return word
            raise OptionError(f"{self.name}={_echo(text)}: expected one of {', '.join(self.choices)}")
        if self.off is not None and word in OFF_WORDS:
            return self.off
        allowed = f"a whole number from {self.low} to {self.high}"
        if self.off is not None:  # said as the word: "off = 0" read as if 0 were in the range
            allowed += ", or off"
        if not word.isdecimal() or len(word) > 12:
            raise OptionError(f"{self.name}={_echo(text)}: expected {allowed}")
        number = int(word)
        if not (self.low <= number <= self.high or number == self.off):
            raise OptionError(f"{self.name}={_echo(text)}: expected {allowed}")
        return number

    def settings(self, value: Any) -> dict[str, Any]:
        """The table-options fields ``value`` sets."""
        if self.kind == "choice":
            return dict(self.choices[value])
        return {self.target: value}

    def fields(self) -> set[str]:
        """Every table-options field this option may set."""
        if self.kind == "choice":
            return {name for values in self.choices.values() for name in values}
        return {self.target}

    def allowed(self) -> str:
        """The allowed values, for help texts."""
        if self.kind == "bool":
            return "on|off"
        if self.kind == "choice":
            return "|".join(self.choices)
        span = f"{self.low}-{self.high}"
        return f"{span}|off" if self.off is not None else span

    def show(self, value: Any) -> str:
        """``value`` as the player would type it."""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if self.kind == "bool":
            return "on" if value else "off"
        if self.kind == "int" and value == self.off:
            return "off"
        return str(value)


def _int(name: str, target: str, span: tuple[int, int, int], help_text: str, **kw: Any) -> Option:
    """An int option; ``span`` is (default, lowest, highest)."""
    default, low, high = span
    return Option(name, "int", default, help_text, target=target, low=low, high=high, **kw)


def _bool(name: str, target: str, default: bool, help_text: str) -> Option:
    return Option(name, "bool", default, help_text, target=target, flag=True)


def _choice(
    name: str, default: str, help_text: str, choices: Mapping[str, Mapping[str, Any]], **kw: Any
) -> Option:
    return Option(name, "choice", default, help_text, choices=choices, **kw)


OPTIONS: dict[str, tuple[Option, ...]] = {
    "auction": (
        _bool(
            "boards",
            "one_round_bidding",
            False,
            "Boards variant: one round of bidding, each player bids or passes once, highest wins",
        ),
        _int(
            "timer",
            "bid_timeout",
            (0, 10, 3600),
            "seconds each bidder has before the referee passes for them (rule 3: bidding ends when all"
            " pass; off = wait for ever)",
            off=0,
        ),
        _choice(
            "empty",
            "lose",
            "90X.3f / forum ruling 1, an auction or draw from an empty block: the active (drawing) player"
            " loses, the game is a draw, or the higher life total wins",
            {
                "lose": {"empty_block_rule": "active_player_loses"},
                "draw": {"empty_block_rule": "draw"},
                "life": {"empty_block_rule": "higher_life_wins"},
            },
        ),
        _choice(
            "noncreature",
            "auction",
            "rule 5 / 90X.4b, a noncreature bought in the auction step: another card goes up for auction"
            " (the author's ruling), or the buyer reveals until a creature, each revealed card theirs to"
            " cast or keep (the draft's text)",
            {
                "auction": {"noncreature_follow_up": "auction"},
                "reveal": {"noncreature_follow_up": "reveal"},
            },
        ),
        _int(
            "gold",
            "starting_gold",
            (10, 0, MAX_STARTING_GOLD),
            "rule 1 / 90X.5b: gold each player starts with",
        ),
        _int(
            "income",
            "income",
            (3, 0, 1000),
            "rule 1 / 90X.5b: gold every player gains at the end of each turn",
        ),
        _choice(
            "at",
            "draw",
            "90X.4a: the auction step opens at the draw step, or as soon as the turn begins (tables that"
            " skip upkeep)",
            {"draw": {"auction_at": "draw"}, "turn": {"auction_at": "turn"}},
        ),
    ),
    "vortex": (
        _choice(
            "overflow",
            "graveyard",
            "a pack over seven loses a random card: the owner discards it (the write-up), or it goes to"
            " the bottom of the shoe, or to exile",
            {
                "graveyard": {"overflow_to": "graveyard"},
                "bottom": {"overflow_to": "shoe_bottom"},
                "exile": {"overflow_to": "exile"},
            },
        ),
        _choice(
            "basics",
            "players",
            "Requirements: the shoe holds one of each basic land per player (only that many of each basic the"
            " pool lists are shuffled in), or every basic land the pool lists",
            {"players": {"basics_per_player": True}, "pool": {"basics_per_player": False}},
        ),
        _choice(
            "firstdraw",
            "skip",
            "draw step (Magic 103.8): the starting player of a two-player game skips their first draw, or"
            " draws it",
            {"skip": {"skip_first_draw": True}, "draw": {"skip_first_draw": False}},
        ),
        _int(
            "picktimer",
            "pick_timeout",
            (0, 10, 600),
            "seconds a player has for each pick before the referee picks for them at random from their pack"
            " (the write-up has no passing: every draw is a pick; off = wait for ever)",
            off=0,
        ),
    ),
    "combat": (
        _choice(
            "draw",
            "active",
            "Turns, Draw: the active player draws three (7 + 10 x 3 = 37 of 40 cards), or each player"
            " draws three at every draw step (the literal text)",
            {"active": {"both_players_draw": False}, "both": {"both_players_draw": True}},
        ),
        _int(
            "hand",
            "max_hand_size",
            (7, 1, 40),
            "Turns, Clean 'as normal': the active player discards down to this",
        ),
        _int("rounds", "rounds", (10, 1, 20), "Gameplay: the game is played for this many rounds"),
    ),
    "market": (
        _int("rounds", "rounds", (3, 1, 20), "Protocol 3.6: rounds of games and markets (r)"),
        _int(
            "ucost",
            "uncommon_cost",
            (10, 1, 100),
            "Buying a card: an uncommon costs this (variant: modify costs)",
        ),
        _int("rcost", "rare_cost", (20, 1, 100), "Buying a card: a rare costs this (variant: modify costs)"),
        _int(
            "mcost", "mythic_cost", (20, 1, 100), "variant 'mythic rares cost more': a mythic rare costs this"
        ),
        _int("cworth", "common_worth", (1, 0, 100), "Buying a card: a common traded in is worth this"),
        _int("uworth", "uncommon_worth", (8, 0, 100), "Buying a card: an uncommon traded in is worth this"),
        _int("rworth", "rare_worth", (14, 0, 100), "Buying a card: a rare traded in is worth this"),
        _int(
            "mworth",
            "mythic_worth",
            (14, 0, 100),
            "variant 'mythic rares worth more': a mythic is worth this",
        ),
        _choice(
            "packs",
            "balanced",
            "Definitions / variant: packs filled colour by colour, or not perfectly colour-representative",
            {"balanced": {"color_balanced": True}, "random": {"color_balanced": False}},
        ),
        _choice(
            "oldrares",
            "all",
            "Definitions, Market (16 cards): every rare left stays for the next market (up to 18 cards), or"
            " at most N of them, at random (3: the 16 cards)",
            {"all": {"old_rare_limit": 0}, **{str(n): {"old_rare_limit": n} for n in range(1, 5)}},
        ),
        _choice(
            "bye",
            "win",
            "Scoring (the write-up is silent on byes, odd player counts): a bye counts as a win, a draw or"
            " a loss, for points and for the buying order",
            {result: {"bye_result": result} for result in BYE_RESULTS},
        ),
        _int(
            "timer",
            "pick_timeout",
            (0, 10, 3600),
            "seconds each player has for a draft pick or a market turn before the referee picks at random"
            " or passes for them (the write-up has no clock; off = wait, except for a player out of the room"
            " two minutes: the referee moves for them either way)",
            off=0,
        ),
    ),
    "autobattler": (
        _choice(
            "poison",
            "fib",
            "Poison Counter Progression: by energy 1,1,2,3,5 (fib), or every loss gives 2 (flat2, the NOTE)",
            {"fib": {"flat_poison": 0}, "flat2": {"flat_poison": 2}},
        ),
        _int(
            "interest",
            "interest_threshold",
            (0, 1, 5),
            "Extra Economic Rewards, Interest: X+ treasures after a mini-game gain one more",
            off=0,
        ),
        _int(
            "streak",
            "streak_length",
            (0, 2, 10),
            "Extra Economic Rewards, Streaks: an N+ mini-game win streak gains a treasure (the write-up: 3)",
            off=0,
        ),
        _choice(
            "carousel",
            "off",
            "Carousel every three mini-games (3 x players cards snake-drafted): the draft's random card is"
            " withheld (drop), or each pick puts a pool card back (putback); pool sizes never change",
            {
                "off": {"carousel": False, "carousel_put_back": False},
                "drop": {"carousel": True, "carousel_put_back": False},
                "putback": {"carousel": True, "carousel_put_back": True},
            },
            flag="drop",
        ),
        _int(
            "basicsfee",
            "basics_change_fee",
            (0, 1, 5),
            "Changing Basic Lands: treasures a player pays to play other basic lands than in their last"
            " mini-game (the write-up: 1)",
            off=0,
        ),
        _int(
            "permbasic",
            "permanent_basic_cost",
            (0, 1, 20),
            "Fun Ways to Spend Money: pay this many treasures (the write-up: 6) during a draft for one more"
            " basic land in every later mini-game (!basic)",
            off=0,
        ),
        _choice(
            "tables",
            "isolated",
            "How Many Players, eight: two isolated groups of four whose winners play a final, or re-seat"
            " the players at new tables whenever hand sizes increase",
            {"isolated": {"reseat_on_energy": False}, "reseat": {"reseat_on_energy": True}},
        ),
        _bool(
            "items",
            "item_drafting",
            False,
            "Items: an Aura or Equipment drafted for treasures equal to its mana value becomes an item in the"
            " command zone, attached to a permanent entering under your control (!item)",
        ),
        _bool(
            "augments",
            "augment_packs",
            False,
            "Augments: a D6 at the start picks uncommon (1-3), rare (4-5) or mythic (6) augments; a player"
            " past 5 poison is dealt a pack of three of them and keeps one (!augment)",
        ),
        _int(
            "timer",
            "pick_timeout",
            (0, 10, 3600),
            "seconds each player has for a draft phase or a carousel pick before the referee ends their"
            " draft (their pool as it is) or picks at random for them (the write-up has no clock; off ="
            " wait, except for a player out of the room two minutes: the referee moves for them either way)",
            off=0,
        ),
    ),
}
"""Every format's options, in the order help texts list them."""


PITCH_LIMIT = 120
"""The most characters a format's pitch has with its title (:func:`pitch`): it opens lines that also carry
options."""

FORMAT_PITCH: dict[str, str] = {
    "auction": (
        "no decks; each turn one card of a shared block is auctioned; every card you play is bought"
        " with gold."
    ),
    "vortex": (
        "no decks; every draw is a pick from your pack of seven, refilled from a shared shoe; packs pass"
        " each turn."
    ),
    "combat": (
        "no mana; creatures in five slots fight the one across, unblocked ones score, most points wins."
    ),
    "market": (
        "a league; draft a deck, play 1-v-1 games, trade cards in for uncommons and rares (losers buy first)."
    ),
    "autobattler": (
        "a league; swap shop cards into your pool, play mini-games, losers get poison; last one standing"
        " wins."
    ),
}
"""Each format in plain words (from the seed write-ups), for a player who never read its write-up; without
its title, which comes first where it is said (:func:`pitch`; ``!rules``: :func:`describe_in_force`)."""


def pitch(format_name: str) -> str | None:
    """``Auction Magic: no decks; ...``: the format's title and what it is in plain words (at most
    :data:`PITCH_LIMIT` characters), for the room's ``!help FORMAT``; None for a format without one."""
    words = FORMAT_PITCH.get(format_name)
    if words is None:
        return None
    return f"{FORMAT_TITLES.get(format_name, format_name)}: {words}"


def options_of(format_name: str) -> tuple[Option, ...]:
    """The options of ``format_name`` (none for a format without options)."""
    return OPTIONS.get(format_name, ())


def _find(format_name: str, name: str) -> Option | None:
    return next((o for o in options_of(format_name) if o.name == name), None)


def is_option_word(format_name: str, word: str) -> bool:
    """Whether ``word`` is meant as an option: ``key=value`` or a flag's bare name."""
    if "=" in word:
        return True
    option = _find(format_name, word.strip().lower())
    return option is not None and option.flag is not None


def suggestion(format_name: str, word: str) -> str:
    """`` (did you mean timer?)`` for a word close to an option name, else ``""``."""
    names = [o.name for o in options_of(format_name)]
    close = difflib.get_close_matches(word.strip().lower(), names, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def misspelt(format_name: str, word: str) -> str:
    """For a room command's word that is not a block: the refusal naming the option it resembles, or ``""``
    when it resembles none (then the block's own error says more)."""
    hint = suggestion(format_name, word)
    return f"no option or block called {_echo(word)!r}{hint}" if hint else ""


def parse(format_name: str, words: Iterable[str]) -> dict[str, Any]:
    """The option values ``words`` set (by option name); every word must be an option.

    Raises:
        OptionError: an unknown option, a bad value, or an option given twice.
    """
    values: dict[str, Any] = {}
    for word in words:
        key, equals, text = word.partition("=")
        key = key.strip().lower()
        option = _find(format_name, key)
        if option is None:
            known = ", ".join(o.name for o in options_of(format_name)) or "none"
            hint = suggestion(format_name, key)
            raise OptionError(f"unknown option '{_echo(key)}'{hint or f' (options: {known})'}")
        if key in values:
            raise OptionError(f"option '{key}' given twice")
        if equals:
            values[key] = option.parse(text)
        elif option.flag is not None:
            values[key] = option.flag
        else:
            raise OptionError(f"option '{key}' needs a value: {key}={option.allowed()}")
    return values


def split_words(format_name: str, words: Iterable[str]) -> tuple[list[str], dict[str, Any]]:
    """Separate a room command's words into the others (in order) and the option values they set.

    Raises:
        OptionError: as :func:`parse`.
    """
    words = list(words)
    return (
        [w for w in words if not is_option_word(format_name, w)],
        parse(format_name, [w for w in words if is_option_word(format_name, w)]),
    )


def settings(format_name: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The table-options fields that option ``values`` set."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        option = _find(format_name, name)
        if option is None:
            raise OptionError(f"unknown option '{_echo(name)}'{suggestion(format_name, name)}")
        out.update(option.settings(value))
    return out


def apply(format_name: str, table_options: Any, values: Mapping[str, Any]) -> Any:
    """A copy of the dataclass ``table_options`` with option ``values`` set."""
    return dataclasses.replace(table_options, **settings(format_name, values))


def config_settings(config_type: type[Any], table_options: Any) -> dict[str, Any]:
    """The fields of the dataclass ``table_options`` that the engine config ``config_type`` also has (same
    name, same meaning): what the bot passes on when it builds the engine."""
    config_fields = {f.name for f in dataclasses.fields(config_type)}
    return {
        f.name: getattr(table_options, f.name)
        for f in dataclasses.fields(table_options)
        if f.name in config_fields
    }


def in_force(format_name: str, table_options: Any) -> dict[str, Any]:
    """Every option's value as ``table_options`` holds it (a choice nothing matches shows as ``custom``)."""
    values: dict[str, Any] = {}
    for option in options_of(format_name):
        if option.kind != "choice":
            values[option.name] = getattr(table_options, option.target)
            continue
        values[option.name] = next(
            (
                choice
                for choice, fields in option.choices.items()
                if all(getattr(table_options, k) == v for k, v in fields.items())
            ),
            "custom",
        )
    return values


def describe_in_force(format_name: str, table_options: Any) -> str:
    """One line for ``!rules`` (after the caller's title): the format in plain words (:data:`FORMAT_PITCH`),
    then ``Options:`` every option in force, changed ones first and marked. A player learning the format from
    the chat hears what it is before its settings."""
    values = in_force(format_name, table_options)
    changed, default = [], []
    for option in options_of(format_name):
        shown = f"{option.name}={option.show(values[option.name])}"
        (default if values[option.name] == option.default else changed).append(shown)
    parts = []
    if changed:
        parts.append("chosen: " + " ".join(changed))
    if default:
        parts.append("defaults: " + " ".join(default))
    options = "; ".join(parts)
    words = FORMAT_PITCH.get(format_name)
    if words is None:
        return options or "no options"
    return f"{words} Options: {options or 'none'}"


def brief(format_name: str, room_defaults: Any) -> str:
    """Every option with its values and, in brackets, the room's default: the room's ``rules`` answer."""
    values = in_force(format_name, room_defaults)
    return (
        " ".join(f"{o.name}={o.allowed()}[{o.show(values[o.name])}]" for o in options_of(format_name))
        or "none"
    )


def room_rules(format_name: str, room_defaults: Any, limit: int = 300) -> list[str]:
    """The room's ``!FORMAT rules`` answer: what the format is (:func:`pitch`), then every option with its
    values and the room's default (:func:`brief`); one line, or two when one would pass ``limit``
    characters (a chat line's cap; a league's options alone fill most of one). A newcomer read
    ``boards=on|off[off] ...`` alone."""
    said = pitch(format_name) or FORMAT_TITLES.get(format_name, format_name) + "."
    listed = f"Options: {brief(format_name, room_defaults)}"
    one = f"{said} {listed}"
    return [one] if len(one) <= limit else [said, listed]


def help_lines(format_name: str) -> list[str]:
    """One line per option: ``name=VALUES (default D): what it does, citing the write-up``."""
    return [
        f"{o.name}={o.allowed()} (default {o.show(o.default)}): {o.help}" for o in options_of(format_name)
    ]


def parse_operator_option(text: str) -> tuple[str, str]:
    """``FORMAT.key=value`` (``bot run --option``) -> the format and the ``key=value`` word.

    Raises:
        OptionError: no format prefix or an unknown format.
    """
    prefix, dot, word = text.partition(".")
    prefix = prefix.strip().lower()
    if not dot or not word:
        raise OptionError(f"'{_echo(text)}': expected FORMAT.key=value, e.g. auction.timer=60")
    if prefix not in OPTIONS:
        raise OptionError(
            f"'{_echo(text)}': unknown format '{_echo(prefix)}' (formats: {', '.join(OPTIONS)})"
        )
    return prefix, word
