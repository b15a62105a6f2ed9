"""How Magic Combat Rules commands read their words: cards by name or hand number, slots by number, and
the refusals said back.

Players number slots 1-5 (the engine counts from 0: :func:`slot_index`); a face-down card goes by its number
in the private hand list, never by name (:func:`split_card_and_numbers`); ``!dies``/``!bounce`` name a
permanent in play, the sender's own by name, another's by player and slot or name (:func:`named_permanent`).
:data:`REFUSALS` words each engine refusal code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from cockatrice_ext.bot.combat_view import ANSWER_SECONDS
from cockatrice_ext.bot.commands import BadArgument
from cockatrice_ext.bot.words import player_key, shorten
from cockatrice_ext.cards.typed import match_names
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats.base import RulesError

_NUMBER = re.compile(r"[0-9]{1,3}")


SLOTS = "slots 1-5"


HAND_DETAILS = frozenset({"wrong_sacrifices"})
"""Refusals whose details describe a card in the player's hand (a creature's mana value: with open deck
lists, mana value 4 named the only such creature): told to the player alone, whatever their words."""


REFUSALS: dict[str, str] = {
    "not_started": "setup has not started yet",
    "already_started": "the game has already started",
    "game_over": "the game is over",
    "game_over/result": "the game is over{result}",
    "bad_player_count": "Magic Combat Rules needs exactly two players",
    "illegal_deck": "{player}'s deck is not legal",
    "not_a_player": "you are not a player of this game",
    "not_your_turn": "it is {active_player}'s turn",
    "not_your_cleanup": (
        "it is {active_player}'s cleanup: only {active_player} discards now (down to {hand_size} cards)"
    ),
    "wrong_step": "not now",
    "no_such_card": "no such card there",
    "card_not_available": "that card is not available",
    "settled_death": "the referee already put {card} in {owner}'s used pile after the fight in slot {slot}",
    "settled_death/own": "the referee already put {card} in your used pile after the fight in slot {slot}",
    "bad_slot": "slots are numbered 1 to {slots}",
    "slot_occupied": "that slot is taken",
    "slot_empty": "that slot is empty",
    "not_a_creature": "{card} is not a creature",
    "not_a_spell": "{card} is not a non-creature spell",
    "mana_value_too_high": "{card}: setup creatures have mana value {maximum} or less",
    "already_done": "you already said you are ready",
    "wrong_sacrifices": "a creature of mana value {mana_value} needs {needed} sacrifice(s)",
    "spell_limit": "you may set only {limit} spells per combat",
    "ability_used": "you already used an ability this combat",
    "cost_above_round": "abilities may cost at most the round number ({round})",
    "spell_above_round": "{card} has mana value {mana_value}; this round allows {cap}",
    "defender_instants_only": "the defending player may cast only instants ({card} is not one)",
    "equipment_limit": "one equipment per player",
    "needs_target": "{card} is an aura: !cast SLOT PLAYER CREATURE-SLOT",
    "fight_pending": "resolve the declared fight first (!resolve)",
    "fight_pending/answer": "the fight in slot {slot} waits for {defender}'s answer first",
    "defender_answering": (
        "the fight waits for {defender} to answer (!cast an instant, then !resolve); it resolves by itself"
        f" {ANSWER_SECONDS:g} s after they were asked or cast their last instant"
    ),
    "active_player_first": (
        "{active_player} reveals first and says !resolve; then you may answer with instants"
        " (!cast SPELL-SLOT, then !resolve)"
    ),
    "no_fight_pending": "no fight is declared",
    "already_fought": "that creature already fought this turn",
    "no_opponent_across": "no creature across to fight",
    "no_equipment": "you have no equipment in play",
    "equip_not_yet": "equip it on a later turn (mana value {mana_value} + cost {cost} > round {round})",
    "bad_count": "that number is out of range",
    "bad_amount": "that amount is out of range",
    "bad_reason": "a player goes by conceding or leaving",
    "ambiguous_card": "which one? name it exactly",
}


NOT_THERE = {
    "hand": "that card is not in your hand (!hand lists yours)",
    "play": "that card is not in play",
}
"""A card reference the engine did not find, by where it looked (``RulesError`` detail ``where``): the words
never repeat the reference, which may be a hand number."""


SLOT_WORDS = {"summon": "slot", "place": "slot", "set": "spell slot"}
"""What each card-and-slot command's number after the card is: a creature slot, or a spell slot."""


def card_and_slot_example(verb: str, name: str = "") -> str:
    """``!summon Gray Ogre 2 (slots 1-5)``: the command with a slot filled in. ``!place`` and ``!set`` put a
    card face down, so their example names it by a hand number (``!place 3 2``), never by the name typed."""
    if verb in ("place", "set") or not name:
        return f"!{verb} 3 2 (card 3 of your !hand into {SLOT_WORDS.get(verb, 'slot')} 2; {SLOTS})"
    return f"!{verb} {shorten(name, 40)} 2 ({SLOTS})"


def split_card_and_numbers(text: str, verb: str = "summon") -> tuple[str | int, list[int]]:
    """``"Shivan Dragon 3 1"`` -> ``("Shivan Dragon", [3, 1])``: the card, then the numbers after it.

    Only numbers (``"4 2"`` -> ``(4, [2])``): the first is the card's number in the player's hand list
    (``!hand``), so a face-down card is never named in public chat. ``verb`` (``summon``, ``place``, ``set``)
    is the command, for a refusal that says which part is missing with an example of it.

    Raises:
        BadArgument: no card or no number.
    """
    words = text.split()
    if len(words) >= 2 and all(_NUMBER.fullmatch(w) for w in words):
        return int(words[0]), [int(w) for w in words[1:]]
    first = next((i for i, w in enumerate(words) if _NUMBER.fullmatch(w)), len(words))
    name, numbers = " ".join(words[:first]), words[first:]
    if not name and not numbers:
        raise BadArgument(
            f"which card and which {SLOT_WORDS.get(verb, 'slot')}? e.g. {card_and_slot_example(verb)}"
        )
    if not numbers or not name:  # "Gray Ogre" or "3": the card is there, the slot is not
        said = name if not numbers else ""
        which = f"which {SLOT_WORDS.get(verb, 'slot')}"
        if said and verb in ("place", "set"):  # face down: by hand number, and the slot
            which += ", and which number in your !hand (face-down cards go by number)"
        raise BadArgument(f"{which}? e.g. {card_and_slot_example(verb, said)}")
    if not all(_NUMBER.fullmatch(w) for w in numbers):
        raise BadArgument(
            f"after the card come only {SLOT_WORDS.get(verb, 'slot')} numbers, e.g."
            f" {card_and_slot_example(verb, name)}"
        )
    if len(name) > 150:
        raise BadArgument("that card name is too long")
    return name, [int(w) for w in numbers]


def named_creature(engine: rules.CombatEngine | None, text: str) -> str | None:
    """The creature of this game's decks (public: deck lists are open) that ``text`` names as players type
    names, a slot number after it allowed; None when it names none or no game has started."""
    words = text.split()
    while words and _NUMBER.fullmatch(words[-1]):
        words.pop()
    if engine is None or not words:
        return None
    creatures = sorted({card.name for card in engine.config.cards if card.is_creature})
    matched = match_names(" ".join(words), creatures)
    return matched[0] if len(matched) == 1 else None


def cast_hint(engine: rules.CombatEngine | None, args: str) -> str:
    """``!cast``'s answer when its first word is no spell slot number (``!cast Gray Ogre``), else ``""``:
    a creature is summoned (``!summon CARD SLOT``), and ``!cast`` reveals a spell set face down, by slot."""
    words = args.split()
    if not words or _NUMBER.fullmatch(words[0]):
        return ""
    how = "!cast SPELL-SLOT reveals a spell you set face down in combat (!set N SLOT), before a fight"
    creature = named_creature(engine, args)
    if creature is not None:
        summon = f"summon it in your main phase, e.g. !summon {creature} 2 ({SLOTS})"
        return f"{creature} is a creature: {summon}. {how}."
    return f"{how}: e.g. !cast 1. Creatures are summoned in your main phase: !summon CARD SLOT."


def play_hint(engine: rules.CombatEngine | None, text: str) -> str:
    """``!play``'s answer: which command plays a card now. Magic Combat Rules has no "play": creatures are
    placed face down at setup, summoned in the main phase; spells are set face down in combat and cast
    before a fight. Only names players typed themselves are repeated (a hand number stays a number)."""
    setup = (
        f"at setup: !place N SLOT (N from !hand, a creature of mana value 3 or less; {SLOTS}), then !ready"
    )
    if engine is None or engine.phase in ("new", "setup"):
        return f"There is no !play: {setup}."
    creature = named_creature(engine, text)
    summon = f"creatures: !summon {creature or 'CARD'} SLOT in your main phase ({SLOTS})"
    spells = "spells: !set N SLOT in combat (face down, N from !hand), then !cast SPELL-SLOT before a fight"
    if creature is not None:
        return f"There is no !play; {summon}."
    return f"There is no !play; {summon}; {spells}."


def own_permanent(engine: rules.CombatEngine, player: Any, text: str) -> str | int:
    """``!dies``/``!bounce``'s card: ``player``'s own permanent of that name (its index, the name read as
    players type it: :func:`~cockatrice_ext.cards.typed.match_names`) when they have one in play, else their
    own creature of that name a settled fight put in their used pile (the engine then says so: the
    opponent's copy in play is not the one they mean), else the text as the engine reads it.
    Both decks may hold the same card, and the fight line asks each owner to confirm their own creature's
    death by name.

    Raises:
        RulesError: ``ambiguous_card`` with its ``candidates``, the name fits two of their permanents."""
    own = permanent_of(engine, player, text)
    if own is not None:
        return own
    settled = engine.settled_death_of(player, text)
    return text if settled is None else settled


def permanent_of(engine: rules.CombatEngine, player: Any, text: str) -> int | None:
    """``player``'s permanent in play that ``text`` names as players type names (its index), or None.

    Raises:
        RulesError: ``ambiguous_card`` with its ``candidates``, the name fits two of their permanents."""
    seat = engine.config.players.index(player)
    theirs = [card for card in engine.permanents_in_play() if engine.config.owners[card] == seat]
    names = [engine.config.cards[card].name for card in theirs]
    matched = match_names(text, names)
    if len(matched) > 1:  # in play, face up: the candidates are public
        raise RulesError("ambiguous_card", card=text, where="play", candidates=matched)
    return theirs[names.index(matched[0])] if matched else None


def permanent_forms(verb: str) -> str:
    """How ``!dies``/``!bounce`` name a permanent: the sender's own by name, anyone's by player and creature
    slot (as ``!cast``'s aura target: ``PLAYER CREATURE-SLOT``) or by player and name."""
    return f"!{verb} CARD (yours), !{verb} PLAYER SLOT (their creature in that slot) or !{verb} PLAYER CARD"


def named_permanent(
    engine: rules.CombatEngine, player: Any, text: str, name_of: Callable[[Any], str], verb: str = "dies"
) -> str | int:
    """``!dies``/``!bounce``'s card, said by ``player``: ``PLAYER SLOT`` is the creature in that player's
    creature slot (``!dies zoe 2``), ``PLAYER CARD`` that player's permanent of that name (``!bounce zoe
    Rancor``), anything else the sender's own (:func:`own_permanent`). Both decks may hold the same card: this
    is how a player names the opponent's copy. The first word counts as a player only when it is a player's
    whole name and the whole text names none of the sender's own permanents. A bare name that only another
    player's permanent in play fits is refused with the form that names it (``verb``: ``dies`` or
    ``bounce``): a slip must not take the opponent's creature. Before play (set-up creatures lie face down)
    the text goes to the engine as typed, which refuses it for the step whatever it names.

    Raises:
        BadArgument: the slot is out of range or empty, or the player has no such permanent in play.
        RulesError: ``ambiguous_card`` (two of that player's permanents fit), ``settled_death`` (a settled
            fight already put that creature in its owner's used pile)."""
    if engine.phase != "play":  # set-up creatures lie face down: the engine refuses, naming nothing
        return text
    words = text.split()
    players = list(engine.config.players)
    owner = next(
        (p for p in players if len(words) > 1 and player_key(name_of(p)) == player_key(words[0])), None
    )
    own = own_permanent(engine, player, text)
    if isinstance(own, int):
        return own
    if owner is None:
        others = [p for p in players if p != player and permanent_of(engine, p, text) is not None]
        if others:  # in play, face up: public. A bare name is the sender's own (seen: a slip took theirs)
            named = shorten(text, 60)
            raise BadArgument(
                f"you have no {named} in play; it is {name_of(others[0])}'s: say !{verb}"
                f" {name_of(others[0])} {named}"
            )
        return own
    rest = " ".join(words[1:])
    seat = players.index(owner)
    if _NUMBER.fullmatch(rest):
        slots = len(engine.seats[seat].creatures)
        if not 1 <= int(rest) <= slots:
            raise BadArgument(f"slots are numbered 1 to {slots}")
        creature = engine.seats[seat].creatures[int(rest) - 1]
        if creature is None:
            raise BadArgument(f"{name_of(owner)} has no creature in slot {rest}")
        return creature
    if (theirs := permanent_of(engine, owner, rest)) is not None:
        return theirs
    if (settled := engine.settled_death_of(owner, rest)) is not None:
        return settled  # the engine says which fight put it in its owner's used pile
    raise BadArgument(f"{name_of(owner)} has no {shorten(rest, 60)} in play ({permanent_forms(verb)})")


def renumbered(size: int) -> str:
    """The refusal of a hand number past the hand: the numbers shift as cards leave it (seen: ``!place 1 1``
    then ``!place 7 2`` refused with a bare "your hand has 6 cards", card 7 of the list read a moment
    before)."""
    return f"your hand has {size} cards now (numbers shift after each card that leaves it): !hand"


def slot_index(number: int, slots: int = 5) -> int:
    """A player's slot number (1-based) as the engine's index (checked by the engine)."""
    return number - 1 if number >= 1 else slots
