"""The referee's wording, shared by every format: lines cut to chat's size, durations, lists, the one
rendering of an engine refusal, and how a typed player name is matched.

Why a module of its own: chat is the scarcest sink (about 1,000 characters per 10 s for all the bot's
chat), so every line is cut the same way, and every format words a refusal and reads a typed name alike.
Nothing here does I/O.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cockatrice_ext.cards.typed import typed_key
from cockatrice_ext.formats.base import RulesError

MAX_CHAT_LINE = 300
"""Bot lines are kept short: the chat budget is about 1000 characters per 10 s for all bot chat."""


def shorten(text: str, limit: int = MAX_CHAT_LINE) -> str:
    """One chat line of at most ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


SPECTATOR_LINE = 120
"""The longest answer a spectator gets in game chat (:func:`brief`): they watch, the advice is for players."""


def brief(text: str, limit: int = SPECTATOR_LINE) -> str:
    """``text`` cut to its first sentence when longer than ``limit`` (a spectator's answer), or shortened."""
    if len(text) <= limit:
        return text
    cut = text.find(". ", 0, limit)
    if cut > 0:
        return text[: cut + 1]
    return shorten(text, limit)


def over_words(reason: str) -> str:
    """ "The game is over (REASON)." for a finished game's state answer."""
    reason = reason.removeprefix("game over").strip(" :")
    if reason.startswith("(") and reason.endswith(")"):
        reason = reason[1:-1]
    return f"The game is over ({reason})." if reason else "The game is over."


def duration_words(seconds: float) -> str:
    """A duration for players: whole seconds under a minute, else rounded minutes ("5 minutes")."""
    if math.ceil(seconds) < 60:  # 59.2 s is "1 minute", never "60 seconds"
        count, unit = max(1, math.ceil(seconds)), "second"
    else:
        count, unit = max(1, round(seconds / 60)), "minute"
    return f"{count} {unit}{'' if count == 1 else 's'}"


def plural(count: int, one: str, many: str) -> str:
    """``one`` for a count of 1, else ``many``."""
    return one if count == 1 else many


def game_list(game_ids: Iterable[int]) -> str:
    """Game numbers as players write them: ``#5, #8``."""
    return ", ".join(f"#{game_id}" for game_id in game_ids)


def named_cards(value: Any) -> list[str]:
    """The card names a refusal's detail holds (one name, or a list of them)."""
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [item for item in value if isinstance(item, str) and item]
    return []


def card_choice(details: Mapping[str, Any], shown: Callable[[str], str] = str) -> str:
    """What a refusal's card details offer the player: ``which one: A or B?`` for its ``candidates`` (two or
    more cards the typed name fits), ``did you mean A?`` for its ``closest`` (typo suggestions), else "".
    ``shown`` gives a card's name as the game shows it (a double-faced card by its front face)."""
    candidates = list(dict.fromkeys(shown(name) for name in named_cards(details.get("candidates"))))
    if len(candidates) >= 2:
        return f"which one: {either(candidates)}?"
    closest = list(dict.fromkeys(shown(name) for name in named_cards(details.get("closest"))))
    if closest:
        return f"did you mean {either(closest)}?"
    return ""


def either(names: list[str]) -> str:
    """``A``, ``A or B``, ``A, B or C``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


@dataclass(frozen=True)
class Refusal:
    """An engine refusal as the player reads it: one line, and whether it must go to them alone."""

    text: str
    private: bool = False


def render_refusal(
    reason: str,
    error: RulesError,
    *,
    hidden: Collection[str] | None = (),
    shown: Callable[[str], str] = str,
) -> Refusal:
    """The one rendering of an engine refusal for every format: ``reason`` (the format's words for it,
    ``Referee.explain``) with :func:`card_choice` after it ("no such card here; did you mean A?"), or, for a
    name that fits several cards, that question alone ("which one: A or B?"); private when it names any
    card of ``hidden``, the cards the acting player sees and others must not (their hand: ``candidates`` and
    ``closest`` come from it), by engine or shown name; ``hidden=None`` (a format that does not say which
    are): every suggested card counts as hidden."""
    choice = card_choice(error.details, shown)
    if choice.startswith("which one"):  # the name fits several cards: the question is the whole answer
        text = choice
    elif choice:
        text = f"{reason.rstrip(' .?!;:')}; {choice}"
    else:
        text = reason
    named = [
        name for key in ("candidates", "closest", "card") for name in named_cards(error.details.get(key))
    ]
    if hidden is None:
        private = bool(
            named_cards(error.details.get("candidates")) or named_cards(error.details.get("closest"))
        )
    else:
        secret = set(hidden)
        private = any(name in secret or shown(name) in secret for name in named)
    return Refusal(text, private)


def player_key(name: str) -> str:
    """A player's name as typed, for comparison: folded (case, accents, a phone's quote marks and spaces)
    without a leading ``@`` or the quote marks around it (``@Zoë_FX``, ``"zoe_fx"`` -> ``zoe_fx``)."""
    return typed_key(name.strip().lstrip("@")).lstrip("@")


def players_named(typed: str, players: Iterable[Any], name_of: Callable[[Any], str]) -> list[Any]:
    """The players among ``players`` that ``typed`` names, forgiving as card names are: the whole name
    folded (:func:`player_key`), else the one whose name it starts (three characters or more)."""
    key = player_key(typed)
    if not key:
        return []
    keys = {player: player_key(name_of(player)) for player in players}
    exact = [player for player, name in keys.items() if name == key]
    if exact or len(key) < 3:
        return exact
    return [player for player, name in keys.items() if name.startswith(key)]
