"""What Magic Combat Rules players read: the public lines for the engine's effects and the private ones.

Pure functions of the engine and its effects, no I/O: :func:`render_effects` (the table's lines, what one
command does to several cards in one line), the fight's lines (:func:`fight_declared_line`,
:func:`fight_line`, the defender's answer: :func:`answer_prompt`, :func:`answer_note`), what a turn passed
back in Cockatrice waits for (:func:`turn_kept_line`), and each player's private lines (the hand list by
number, draws, notes: :func:`private_lines`). Cards are named by ``shown``, the name on the card in
Cockatrice; players by ``name_of``. Face-down and drawn cards never reach a public line.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from cockatrice_ext.bot.words import MAX_CHAT_LINE
from cockatrice_ext.formats import combat as rules
from cockatrice_ext.formats.base import CardRef, Effect

LIBRARY_HOWTO = (
    "Take them from your library into your hand (right-click your library, View library, drag each);"
    " the referee names every later draw here and you take it the same way."
)


JUDGE_LAYS_OUT = "It is in your hand. The referee puts your cards on the table as you play them."


ANSWER_SECONDS = 90.0
"""Seconds a defender with face-down spells has to answer a fight (``!cast`` instants, ``!resolve``) before
the referee resolves it for them: the game never waits on a player who is away. Counted from the ask, and
again from each instant they cast (each cast line tells them the clock anew)."""


def same_name(name: str) -> str:
    """The default ``shown``: the engine's card name is the one on the card."""
    return name


def hand_listing(engine: rules.CombatEngine, player: Any, shown: Callable[[str], str] = same_name) -> str:
    """``1. Shock; 2. Grizzly Bears`` - the numbers ``!place N SLOT`` and ``!set N SLOT`` use; each card
    by ``shown`` (the name on the card in Cockatrice: a flip card by the name its owner's library shows)."""
    hand = engine.seats[engine.config.players.index(player)].hand
    cards = engine.config.cards
    return "; ".join(f"{n}. {shown(cards[i].name)}" for n, i in enumerate(hand, start=1)) or "empty"


def setup_prompt(engine: rules.CombatEngine, player: Any) -> str:
    """What ``player`` may place at setup, by hand number (sent privately with their opening hand): which
    numbers are placeable, or that none is and they only need to be ready."""
    numbers = [str(position + 1) for position in engine.setup_choices(player)]
    cap = engine.config.setup_max_mana_value
    if not numbers:
        return f"None of them is a creature of mana value {cap} or less to place: say !ready."
    which = (
        f"number {numbers[0]} is a creature"
        if len(numbers) == 1
        else f"numbers {', '.join(numbers)} are creatures"
    )
    return (
        f"Place face down without naming them: !place N SLOT ({which} of mana value {cap} or less),"
        " then !ready."
    )


def game_result(winner: Any, points: Iterable[int], rounds: int, name_of: Callable[[Any], str]) -> str:
    """``after round 10: zoe wins, 2-32`` (or ``a draw``): the same words after "Game over" in the game-over
    line and ``!score``, and after "the game is over" in a refusal once it is."""
    score = "-".join(str(p) for p in sorted(points, reverse=True))  # the winner's (the most) points first
    if winner is None:
        return f"after round {rounds}: a draw, {score}"
    return f"after round {rounds}: {name_of(winner)} wins, {score}"


def went_result(out: Any, reason: str, winner: Any, name_of: Callable[[Any], str]) -> str:
    """``bob conceded; zoe wins``: a game a player ended by going (``reason``: ``conceded``, ``left``), the
    same words after "Game over:" in the game-over line and ``!score``, after "the game is over:" in a
    refusal, and in ``!games`` (the game's finish reason)."""
    return f"{name_of(out)} {reason or 'left'}; {name_of(winner)} wins"


def revealed_lines(
    revealed: list[rules.CreaturesRevealed],
    name_of: Callable[[Any], str],
    shown: Callable[[str], str] = same_name,
) -> list[str]:
    """The setup's reveal: one line naming every player's creatures by slot (both are revealed at once, so
    the table reads them together); a line per player only when one line cannot hold every name."""

    def faces(effect: rules.CreaturesRevealed) -> str:
        named = [
            f"{shown(ref.name)} ({slot + 1})" for slot, ref in enumerate(effect.slots) if ref is not None
        ]
        return ", ".join(named) or "no creatures"

    together = "Creatures revealed: " + "; ".join(f"{name_of(e.player)}: {faces(e)}" for e in revealed) + "."
    if len(revealed) == 1 or len(together) > MAX_CHAT_LINE:
        return [f"{name_of(e.player)} reveals: {faces(e)}." for e in revealed]
    return [together]


def render_effects(
    effects: Iterable[Effect],
    engine: rules.CombatEngine,
    name_of: Callable[[Any], str],
    shown: Callable[[str], str] = same_name,
) -> list[str]:
    """Public chat lines for ``effects``; drawn cards and face-down cards stay private. Cards are named by
    ``shown``: the name on the card in Cockatrice (a flip card by its front face, as in play there).
    What one command did to several cards of a kind reads as one line, not one per card: its discards (with
    what the cleanup still asks), the cards that left play together, the permanents a resolution put in
    play, a summon's sacrifices and what left play with them."""
    effects = list(effects)
    lines: list[str] = []

    def card(ref: CardRef) -> str:
        return shown(ref.name)

    settled_deaths: set[int] = set()  # creatures a settled fight killed: its line names them
    summoned_with = summon_departures(effects)  # a summon's sacrifices and what left play with them
    position = 0
    while position < len(effects):
        effect = effects[position]
        position += 1
        if isinstance(effect, rules.GameStarted):
            players = " vs ".join(name_of(p) for p in effect.players)
            lines.append(
                f"Magic Combat Rules, {effect.rounds} rounds: {players}. Opening hands come by private"
                " message. Setup: !place N SLOT (N from !hand; creatures of mana value 3 or less, slots 1-5),"
                " then !ready."
            )
        elif isinstance(effect, rules.CardsDrawn):
            if effect.cards and engine.phase == "play":
                lines.append(f"{name_of(effect.player)} draws {len(effect.cards)}.")
        elif isinstance(effect, rules.DrawPileReshuffled):
            sizes = ", ".join(str(s) for s in effect.pile_sizes)
            lines.append(
                f"A draw pile ran out: both players shuffle their used cards into their decks ({sizes})."
            )
        elif isinstance(effect, rules.FaceDownPlaced):
            where = "creature slot" if effect.zone == "creature" else "spell slot"
            lines.append(f"{name_of(effect.player)} places a card face down in {where} {effect.slot + 1}.")
        elif isinstance(effect, rules.PlayerReady):
            lines.append(f"{name_of(effect.player)} is ready.")
        elif isinstance(effect, rules.CreaturesRevealed):
            revealed = [effect]
            while position < len(effects) and isinstance(effects[position], rules.CreaturesRevealed):
                revealed.append(effects[position])  # type: ignore[arg-type]
                position += 1
            lines += revealed_lines(revealed, name_of, shown)
        elif isinstance(effect, rules.TurnStarted):
            lines.append(
                f"Round {effect.round}, {name_of(effect.player)}'s turn: spells up to mana value"
                f" {effect.spell_cap}. !summon CARD SLOT, then !combat."
            )
        elif isinstance(effect, rules.StepChanged):
            if effect.step == "combat":
                lines.append(
                    "Combat: set up to 3 spells (!set N SLOT, N from !hand), one ability"
                    " (!ability SLOT COST), !ready."
                )
            elif effect.step == "fights":
                active = engine.whose_turn
                lines.append(f"Fights: {name_of(active)}, !fight SLOT, or !pass to end combat.")
        elif isinstance(effect, rules.CreatureSummoned):
            sacrificed = ", ".join(card(ref) for ref in effect.sacrificed)
            victims = {ref.index for ref in effect.sacrificed}
            with_them = [
                effects[at]
                for at, summon in sorted(summoned_with.items())
                if summon == position - 1 and effects[at].card.index not in victims  # type: ignore[attr-defined]
            ]  # what left play with the sacrifices (their auras): said in the summon's line, not one each
            also = f"; {left_play_words(with_them, name_of, shown)}" if with_them else ""
            lines.append(
                f"{name_of(effect.player)} summons {card(effect.card)} in slot {effect.slot + 1}"
                + (f", sacrificing {sacrificed}{also}." if sacrificed else ".")
            )
        elif isinstance(effect, rules.AbilityActivated):
            lines.append(
                f"{name_of(effect.player)} uses an ability of {card(effect.card)} (cost {effect.cost})."
            )
        elif isinstance(effect, rules.FightDeclared):
            lines.append(fight_declared_line(effect, engine, name_of, shown))
        elif isinstance(effect, rules.DefenderToAnswer):
            lines.append(
                f"{name_of(effect.player)}: !cast an instant (SPELL-SLOT) or !resolve; without an answer the"
                f" fight in slot {effect.slot + 1} resolves in {ANSWER_SECONDS:g} s."
            )
        elif isinstance(effect, rules.SpellCast):
            target = ""
            if effect.target_player is not None and effect.target_slot is not None:
                target = f" on {name_of(effect.target_player)}'s slot {effect.target_slot + 1}"
            prompt = answer_prompt(effect, engine, name_of)
            lines.append(f"{name_of(effect.player)} casts {card(effect.card)}{target}.{prompt}")
        elif isinstance(effect, rules.SpellsResolved):
            lines.append("Resolving: " + ", ".join(card(ref) for ref in effect.cards) + ".")
        elif isinstance(effect, rules.EnchantmentReplaced):
            old = f" ({card(effect.discarded)} is discarded)" if effect.discarded is not None else ""
            lines.append(f"{name_of(effect.player)}'s {card(effect.card)} is the enchantment in play{old}.")
        elif isinstance(effect, rules.PermanentEntered):
            entered = [effect]  # the auras and equipment of one resolution: one line, not one each
            while position < len(effects) and isinstance(effects[position], rules.PermanentEntered):
                entered.append(effects[position])  # type: ignore[arg-type]
                position += 1
            lines.append(entered_line(entered, name_of, shown))
        elif isinstance(effect, rules.SpellFizzled):
            lines.append(f"{card(effect.card)} has no target and fizzles.")
        elif isinstance(effect, rules.FightResolved):
            lines.append(fight_line(effect, engine, name_of, shown))
            if effect.settled:
                settled_deaths.update(ref.index for ref in effect.dies)
        elif isinstance(effect, rules.Equipped):
            lines.append(
                f"{name_of(effect.player)} equips {card(effect.equipment)} to {card(effect.creature)}."
            )
        elif isinstance(effect, rules.CardLeftPlay):
            if position - 1 in summoned_with:  # the summon's line says it
                continue
            run = [effect]  # a creature and its auras (!dies, a fight): one line, not one each
            while (
                position < len(effects)
                and isinstance(effects[position], rules.CardLeftPlay)
                and position not in summoned_with
            ):
                run.append(effects[position])  # type: ignore[arg-type]
                position += 1
            told = [left for left in run if left.card.index not in settled_deaths]
            settled_deaths.difference_update(left.card.index for left in run)  # the fight's line said where
            if told:
                lines.append(f"{left_play_words(told, name_of, shown)}.")
        elif isinstance(effect, rules.CardDiscarded):
            discarded, still = [effect.card], None  # one command's discards: one line, and what is left
            while position < len(effects):
                following = effects[position]
                if isinstance(following, rules.CardDiscarded) and following.player == effect.player:
                    discarded.append(following.card)
                    still = None  # a countdown a later discard of the same command overtook
                elif isinstance(following, rules.DiscardToHandSize) and following.player == effect.player:
                    still = following
                else:
                    break
                position += 1
            lines.append(discarded_line(effect.player, discarded, still, name_of, shown))
        elif isinstance(effect, rules.DiscardToHandSize):
            lines.append(
                f"Cleanup: {name_of(effect.player)} discards {effect.count} (!discard N, by the hand list"
                f" sent privately) down to {effect.hand_size} cards; then the turn passes."
            )
        elif isinstance(effect, rules.PointsScored):
            if effect.slots:
                slots = ", ".join(str(s + 1) for s in effect.slots)
                lines.append(
                    f"{name_of(effect.player)} scores {effect.scored} (unblocked: slot {slots}),"
                    f" {effect.points} in all."
                )
            else:
                lines.append(f"{name_of(effect.player)} scores {effect.scored}, {effect.points} in all.")
        elif isinstance(effect, rules.LifeChanged):
            lines.append(f"{name_of(effect.player)} is at {effect.life} life.")
        elif isinstance(effect, rules.GameOver):
            if effect.out is not None:
                lines.append(f"Game over: {went_result(effect.out, effect.reason, effect.winner, name_of)}.")
            else:
                result = game_result(effect.winner, effect.points, engine.config.rounds, name_of)
                lines.append(f"Game over {result}.")
    return lines


def summon_departures(effects: list[Effect]) -> dict[int, int]:
    """Position of each ``CardLeftPlay`` a summon caused (its sacrifices, and their auras, which the engine
    puts right before the ``CreatureSummoned``) -> the summon's position."""
    found: dict[int, int] = {}
    for at, effect in enumerate(effects):
        if isinstance(effect, rules.CreatureSummoned) and effect.sacrificed:
            before = at - 1
            while before >= 0 and isinstance(effects[before], rules.CardLeftPlay) and before not in found:
                found[before] = at
                before -= 1
    return found


def left_play_words(
    left: list[rules.CardLeftPlay], name_of: Callable[[Any], str], shown: Callable[[str], str] = same_name
) -> str:
    """``Grizzly Bears leaves play to zoe's used pile, Rancor to alice's used pile``: cards that left play
    together (a creature and its auras), by where each went, in one clause."""
    groups: dict[tuple[Any, str], list[str]] = {}
    for effect in left:
        groups.setdefault((effect.owner, effect.to), []).append(shown(effect.card.name))
    parts = []
    for (owner, to), cards in groups.items():
        where = f"{name_of(owner)}'s {'hand' if to == 'hand' else 'used pile'}"
        if not parts:
            verb = "leaves" if len(cards) == 1 else "leave"
            parts.append(f"{_and(cards)} {verb} play to {where}")
        else:
            parts.append(f"{_and(cards)} to {where}")
    return ", ".join(parts)


KIND_PLURALS = {"aura": "auras", "equipment": "equipment"}


def entered_line(
    entered: list[rules.PermanentEntered],
    name_of: Callable[[Any], str],
    shown: Callable[[str], str] = same_name,
) -> str:
    """``zoe's Rancor and Spectral Flight enter (auras).``: the permanents one resolution put in play, by
    player, in one line (``zoe's Rancor enters (aura).`` for one)."""
    by_player: dict[Any, list[rules.PermanentEntered]] = {}
    for effect in entered:
        by_player.setdefault(effect.player, []).append(effect)
    parts = []
    for player, theirs in by_player.items():
        kinds = {effect.kind for effect in theirs}
        if len(theirs) == 1:
            parts.append(f"{name_of(player)}'s {shown(theirs[0].card.name)} enters ({theirs[0].kind})")
        elif len(kinds) == 1:
            kind = next(iter(kinds))
            cards = _and([shown(effect.card.name) for effect in theirs])
            parts.append(f"{name_of(player)}'s {cards} enter ({KIND_PLURALS.get(kind, kind + 's')})")
        else:
            cards = _and([f"{shown(effect.card.name)} ({effect.kind})" for effect in theirs])
            parts.append(f"{name_of(player)}'s {cards} enter")
    return "; ".join(parts) + "."


def discarded_line(
    player: Any,
    cards: list[CardRef],
    still: rules.DiscardToHandSize | None,
    name_of: Callable[[Any], str],
    shown: Callable[[str], str] = same_name,
) -> str:
    """One command's discards in one line: ``zoe discards Shock and Rancor.``, and at a cleanup that still
    waits, how many more (``; 1 more to discard (!discard N ...) down to 7 cards, then the turn passes.``).
    Seen: ``!discard 3 4 6`` printed a discard and a countdown line for each card. The cards go to a used
    pile, face up: public."""
    tail = "."
    if still is not None:
        tail = (
            f"; {still.count} more to discard (!discard N, by the hand list sent privately) down to"
            f" {still.hand_size} cards, then the turn passes."
        )
    head = f"{name_of(player)} discards "
    named = [shown(ref.name) for ref in cards]
    listed = _and(named)
    while len(named) > 1 and len(head) + len(listed) + len(tail) > MAX_CHAT_LINE:  # the count is kept
        named.pop()
        listed = f"{', '.join(named)} and {len(cards) - len(named)} more"
    return f"{head}{listed}{tail}"


def fight_declared_line(
    effect: rules.FightDeclared,
    engine: rules.CombatEngine,
    name_of: Callable[[Any], str],
    shown: Callable[[str], str] = same_name,
) -> str:
    """``carol's Silvercoat Lion fights Gray Ogre in slot 1. carol: !cast SPELL-SLOT, then !resolve; frank may
    answer with instants.``: the defender is named when they have a face-down spell (a public fact), since
    the fight then waits for their answer after the attacker's ``!resolve``."""
    attacker = name_of(effect.player)
    line = (
        f"{attacker}'s {shown(effect.attacker.name)} fights {shown(effect.defender.name)} in slot"
        f" {effect.slot + 1}. {attacker}: !cast SPELL-SLOT, then !resolve"
    )
    players = engine.config.players
    if effect.player in players and engine.config.defender_answers:
        defender = players[1 - players.index(effect.player)]
        if engine.has_face_down_spells(defender):
            return f"{line}; {name_of(defender)} may answer with instants."
    return f"{line}."


def answer_prompt(effect: rules.SpellCast, engine: rules.CombatEngine, name_of: Callable[[Any], str]) -> str:
    """`` carol: !cast another instant (SPELL-SLOT) or !resolve; the fight resolves by itself in 90 s.``
    after the cast line of a defender the fight still waits for (else ""): seen, a defender who answered
    heard nothing more until the clock resolved for them. Said in the cast's own line (no extra message),
    and the clock starts again with it (:meth:`CombatReferee.arm_answer_timer`). Public: it depends only on
    whether they still have a card face down, never on what those cards are (whether one is a castable
    instant is told to them alone: :func:`answer_note`)."""
    if engine.answering_player() != effect.player:
        return ""
    name = name_of(effect.player)
    clock = f"the fight resolves by itself in {ANSWER_SECONDS:g} s."
    if engine.has_face_down_spells(effect.player):
        return f" {name}: !cast another instant (SPELL-SLOT) or !resolve; {clock}"
    return f" {name}: !resolve when done; {clock}"


def answer_note(
    engine: rules.CombatEngine, player: Any, shown: Callable[[str], str] = same_name, *, cast: bool = False
) -> str:
    """Private, to the defender the fight waits for while something of theirs is face down: what they can
    cast now, or that nothing can be, and why, card by card (``""`` otherwise: nothing face down is public,
    and the table's lines say it all). The table's lines are the same either way, and so is this message's
    coming: the clock starts once it has left the chat queue (``told``), so a note sent only when nothing
    can be cast would delay the clock, and the attacker could time that. ``cast``: after an instant of
    theirs (the others)."""
    if engine.answering_player() != player or not engine.has_face_down_spells(player):
        return ""
    seat = engine.config.players.index(player)
    spells = engine.seats[seat].spells
    clock = f"the fight resolves by itself in {ANSWER_SECONDS:g} s"
    if castable := engine.castable_spells(player):
        named = ", ".join(
            f"{shown(engine.config.cards[card].name)} (spell slot {slot + 1})"
            for slot, card in enumerate(spells)
            if card is not None and slot in castable
        )
        still = "still " if cast else ""
        return (
            f"You can {still}cast {named}: !cast SLOT, then !resolve (or !resolve alone); without a word,"
            f" {clock}."
        )
    reasons: list[str] = []
    for slot, card in enumerate(spells):
        if card is None:
            continue
        why = []
        for refusal in engine.cast_refusals(seat, card):
            if refusal.code == "defender_instants_only":
                why.append("not an instant (the defender casts only instants)")
            elif refusal.code == "spell_above_round":
                why.append(
                    f"mana value {refusal.details['mana_value']}, above this round's cap of {engine.round}"
                )
        reasons.append(
            f"{shown(engine.config.cards[card].name)} (spell slot {slot + 1}): {' and '.join(why)}"
        )
    others = "other " if cast else ""
    return (
        f"None of your {others}face-down spells can be cast in this fight: {'; '.join(reasons)}. Say !resolve"
        f" (or !pass), else {clock}. Every defender with a card face down is asked the same, so your opponent"
        " cannot tell."
    )


def fight_wait(engine: rules.CombatEngine) -> tuple[Any, ...]:
    """What the pending fight waits for, ``()`` when none is pending: (its slot, whether its defender is
    answering). A Cockatrice turn passed back during it is said once per such wait."""
    if engine.phase != "play" or engine.fight_slot is None:
        return ()
    return (engine.fight_slot, engine.answering_player() is not None)


NOT_BY_COCKATRICE = "(passing the turn in Cockatrice does not: anyone can press it)"


def step_ask(engine: rules.CombatEngine, target: Any, name: str) -> str:
    """What ends the turn from the step it is in, after "It is still X's turn": ``!pass`` only in the fights
    (seen: "(step main): !pass ends it.", which the main step refuses)."""
    if engine.step == "main":
        return (
            f" (main step): {name}, !summon CARD SLOT, then !combat; in the fights !pass ends the turn"
            f" {NOT_BY_COCKATRICE}."
        )
    if engine.step == "combat":
        return (
            " (combat step): set spells (!set N SLOT), then both players say !ready; in the fights !pass ends"
            f" the turn {NOT_BY_COCKATRICE}."
        )
    if engine.step == "cleanup" and target in engine.config.players:
        excess = engine.hand_size(target) - engine.config.max_hand_size
        return f" (cleanup): {name} discards {excess} more (!discard N), then the turn passes."
    return "."


def turn_kept_line(engine: rules.CombatEngine, target: Any, name_of: Callable[[Any], str]) -> str:
    """What the table reads when Cockatrice's turn was passed while the engine's turn goes on (the referee
    passes it back): whose turn it still is, what a pending fight waits for, and how the turn or its combat
    ends (``!pass``: a press in Cockatrice may be anyone's)."""
    name = name_of(target)
    if engine.phase == "play" and engine.step == "fights" and engine.fight_slot is None:
        return f"It is still {name}'s turn: {name}, !fight SLOT, or !pass to end combat {NOT_BY_COCKATRICE}."
    if engine.phase != "play" or engine.fight_slot is None:
        return f"It is still {name}'s turn{step_ask(engine, target, name)}"
    slot = engine.fight_slot + 1
    answering = engine.answering_player()
    if answering is not None:
        waits = (
            f"{name_of(answering)}'s answer (!cast an instant or !resolve; it resolves by itself within"
            f" {ANSWER_SECONDS:g} s)"
        )
    else:
        waits = f"{name}'s !cast or !resolve"
    return f"It is still {name}'s turn: the fight in slot {slot} waits for {waits}."


def answer_key(engine: rules.CombatEngine) -> tuple[int, int, int]:
    """Which wait for a defender's answer the clock runs for: (turn, fight slot, spells cast for the fight).
    While the fight waits for the defender only they cast, so each instant of theirs is a new wait, with
    the whole of :data:`ANSWER_SECONDS` again (its cast line says so: :func:`answer_prompt`)."""
    return (engine.turn, engine.fight_slot or 0, len(engine.stack))


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


UNSETTLED = {
    "no_card_data": "the cards' rules text (this game began before the referee read it)",
    "rules_text": "the rules text of {0}",
    "attached": "{0} on {1}",
    "altered": "what {0} may have done to {1}",
    "in_play": "{0} in play",
}
"""Why the referee did not settle a fight (``FightResolved.reason``), with its face-up ``reason_cards``."""


def fight_line(
    effect: rules.FightResolved,
    engine: rules.CombatEngine,
    name_of: Callable[[Any], str],
    shown: Callable[[str], str] = same_name,
) -> str:
    """One public line for a resolved fight: the deaths the referee applied (settled), or who dies by
    printed power and toughness and who confirms it with ``!dies`` (not settled, and why); cards by
    ``shown``, the name on the card in Cockatrice."""
    head = f"Fight in slot {effect.slot + 1} done"
    if effect.attacker is None or effect.defender is None:
        return f"{head}: a creature left play before it, so nothing fought."
    cards, players = engine.config.cards, engine.config.players

    def owner(ref: Any) -> str:
        return name_of(players[engine.config.owners[ref.index]])

    def stats(ref: Any) -> str:
        return f"{shown(ref.name)} {cards[ref.index].power}/{cards[ref.index].toughness}"

    if effect.settled:
        fought = f"{head}: {stats(effect.attacker)} against {stats(effect.defender)}"
        if not effect.dies:
            return f"{fought}; both survive."
        if len(effect.dies) == 2:
            return f"{fought}; both die (to their owners' used piles)."
        return f"{fought}; {shown(effect.dies[0].name)} dies (to {owner(effect.dies[0])}'s used pile)."

    def whose(ref: Any) -> str:  # both decks may hold the same card
        return f"{owner(ref)}'s {shown(ref.name)}"

    why = UNSETTLED.get(effect.reason, "a card's rules text").format(*(whose(r) for r in effect.reason_cards))
    printed = all(
        rules.printed_number(cards[r.index].power) is not None
        and rules.printed_number(cards[r.index].toughness) is not None
        for r in (effect.attacker, effect.defender)
    )
    said = f"{head}; the referee cannot judge {why}"
    if not printed:
        return f"{said}: a creature that died, its owner says !dies CARD."
    if not effect.dies:
        return (
            f"{said}. By printed power/toughness neither would die; a creature that died all the same, its"
            " owner says !dies CARD."
        )
    example = effect.dies[0]
    dies = f"{owner(example)}: !dies {shown(example.name)}"
    return (
        f"{said}. By printed power/toughness {_and([whose(ref) for ref in effect.dies])} would die; each"
        f" creature that really died, its owner says !dies CARD ({dies})."
    )


def unconfirmed_line(
    waiting: Iterable[tuple[int, int]],
    engine: rules.CombatEngine,
    name_of: Callable[[Any], str],
    shown: Callable[[str], str] = same_name,
) -> str:
    """Said once when the game moves on while a fight the referee could not settle is unconfirmed: which
    creatures (``waiting``: card index, fight slot) would have died by printed power and toughness and are
    still in play, whose they are, and the command that confirms each (noted: the fight line's "would die"
    came again at the next fight of the same creatures, and nobody had been told what the referee waited
    for). A creature that lived needs no word, so this is no refusal: the game goes on either way."""
    cards, players = engine.config.cards, engine.config.players
    found = [(players[engine.config.owners[card]], shown(cards[card].name), slot) for card, slot in waiting]
    if not found:
        return ""
    items = _and([f"{name_of(owner)}'s {name} (slot {slot + 1})" for owner, name, slot in found])
    head = f"Not confirmed yet: {items} would have died by printed power/toughness and"
    if len(found) == 1:
        owner, name, _ = found[0]
        return (
            f"{head} is still in play. If it died, {name_of(owner)} says !dies {name}; if it lived, nothing"
            " to do."
        )
    commands = "; ".join(f"{name_of(owner)}: !dies {name}" for owner, name, _ in found)
    return (
        f"{head} are still in play. Each that died, its owner says !dies CARD ({commands}); one that lived"
        " needs no word."
    )


def cannot_cast_note(
    effect: rules.FaceDownPlaced, engine: rules.CombatEngine, shown: Callable[[str], str] = same_name
) -> str:
    """Private: why the spell just set cannot be cast in this turn's fights (``""``: it can). It may still
    be cast on a later turn from its slot; a spell above the last round never can."""
    if not effect.cannot_cast:
        return ""
    facts = engine.config.cards[effect.card.index]
    reasons: list[str] = []
    if "spell_above_round" in effect.cannot_cast:
        rounds = engine.config.rounds
        when = (
            f"castable from round {facts.mana_value} on"
            if facts.mana_value <= rounds
            else f"no round of this {rounds}-round game allows it"
        )
        reasons.append(
            f"its mana value {facts.mana_value} is above this round's cap of {engine.spell_cap()} ({when})"
        )
    if "defender_instants_only" in effect.cannot_cast:
        reasons.append("you defend this turn, and the defender casts only instants (cast it on your turn)")
    return (
        f"Note: {shown(effect.card.name)} in spell slot {effect.slot + 1} cannot be cast this turn:"
        f" {'; '.join(reasons)}. It stays there, face down, until you cast it."
    )


@dataclass(frozen=True)
class PrivateLine:
    """One private line of :func:`private_lines`: to whom, what it says now, and what kind of line it is
    (``opening``, ``draw``, ``hand``: a hand list, after ``note`` when there is one; ``answer``: the
    defender's :func:`answer_note`, ``cast`` after an instant of theirs). Hand lists and answer notes say
    what is true now, so the referee draws them again as they leave (:meth:`CombatReferee.private_line`)."""

    player: Any
    text: str
    kind: str
    note: str = ""
    cast: bool = False


def private_lines(
    effects: Iterable[Effect],
    engine: rules.CombatEngine,
    *,
    moved: Collection[int] = (),
    shown: Callable[[str], str] = same_name,
) -> list[PrivateLine]:
    """The private lines ``effects`` call for: the opening hand, numbered (for ``!place N SLOT``), later
    draws, and the hand list whenever a card leaves the hand (face down: numbers for ``!set N SLOT``, after a
    note when the spell set cannot be cast this turn; a discard, at each step of a cleanup too: ``!discard
    N``; a summon); a defender asked to answer hears what of theirs can be cast now, or that nothing can
    (:func:`answer_note`). ``moved``: positions in ``effects`` of draws the referee put into the player's
    hand itself (a judge): those need no word; the others are named, and the opening hand says once how to
    take them from the library. Hand cards and draws are named by ``shown``: the name on the card in
    Cockatrice."""
    out: list[PrivateLine] = []
    for position, effect in enumerate(effects):
        if isinstance(effect, rules.CardsDrawn) and effect.cards and effect.visible_to is not None:
            if engine.phase == "setup":
                where = JUDGE_LAYS_OUT if position in moved else LIBRARY_HOWTO
                text = (
                    f"Your opening hand: {hand_listing(engine, effect.player, shown)}. {where}"
                    f" {setup_prompt(engine, effect.player)}"
                )
                out.append(PrivateLine(effect.player, text, "opening"))
            elif position not in moved:
                drawn = ", ".join(shown(ref.name) for ref in effect.cards)
                out.append(PrivateLine(effect.player, f"You draw: {drawn}.", "draw"))
        elif (isinstance(effect, rules.FaceDownPlaced) and effect.visible_to is not None) or isinstance(
            effect, (rules.DiscardToHandSize, rules.CardDiscarded, rules.CreatureSummoned)
        ):  # a card left the hand (or must): the numbers changed, so the new list, once per batch
            note = cannot_cast_note(effect, engine, shown) if isinstance(effect, rules.FaceDownPlaced) else ""
            text = f"{note} {hand_message(engine, effect.player, shown)}".lstrip()
            if not any((line.player, line.text) == (effect.player, text) for line in out):
                out.append(PrivateLine(effect.player, text, "hand", note=note))
        elif isinstance(effect, rules.DefenderToAnswer | rules.SpellCast) and (
            note := answer_note(engine, effect.player, shown, cast=isinstance(effect, rules.SpellCast))
        ):
            out.append(PrivateLine(effect.player, note, "answer", cast=isinstance(effect, rules.SpellCast)))
    return out


def private_messages(
    effects: Iterable[Effect],
    engine: rules.CombatEngine,
    *,
    moved: Collection[int] = (),
    shown: Callable[[str], str] = same_name,
) -> list[tuple[Any, str]]:
    """(player, text) of each of :func:`private_lines`, as they read now."""
    return [(line.player, line.text) for line in private_lines(effects, engine, moved=moved, shown=shown)]


def hand_message(engine: rules.CombatEngine, player: Any, shown: Callable[[str], str] = same_name) -> str:
    """``Your hand: 1. ...`` (private); during setup also what may still be placed, by the new numbers."""
    text = f"Your hand: {hand_listing(engine, player, shown)}."
    seat = engine.seats[engine.config.players.index(player)]
    if engine.phase == "setup" and not seat.setup_done:
        text += f" {setup_prompt(engine, player)}"
    return text
