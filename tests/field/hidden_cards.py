"""Which card names each player may know, and a scan of everything they received for the others.

A ``Secret`` is a card name known only to its holders from a moment on (a pack, a hand, a pool or a shop
told to them privately, or the top of a block they looked at) until it is legitimately revealed. A player
"knows" a name from the moment any secret naming it is theirs. ``find_leaks`` reads every item each player
received (chat of every kind, game events, room events, session events) and reports every hidden name in
it, except in what that player typed themselves and in deck lists the game shares on load (they say what a
deck holds, not which card is where).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from field_players import FieldPlayer


@dataclass(frozen=True)
class Secret:
    """``name`` is hidden from everyone but ``holders`` during [start, end) (monotonic seconds)."""

    name: str
    holders: frozenset[str]
    start: float = 0.0
    end: float = math.inf


@dataclass(frozen=True)
class Leak:
    """A hidden name found in something a player received."""

    reader: str
    name: str
    kind: str
    text: str
    at: float

    def __str__(self) -> str:
        return f"{self.reader} was shown {self.name!r} in {self.kind}: {self.text[:160]!r}"


def block_names(path: Path) -> set[str]:
    """Card names of a block/pool list (``N Name [(SET) NUM]`` lines, ``#`` comments)."""
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        match = re.match(r"^(?:\d+x?\s+)?(.+?)(?:\s+\([A-Za-z0-9]+\)(?:\s+\S+)?)?$", line)
        if line and match and not line.startswith("["):
            names.add(match.group(1))
    return names


class CardNames:
    """Finds card names in text: whole words, any case (a leak may be lower-cased), longest name first."""

    def __init__(self, names: Iterable[str]) -> None:
        ordered = sorted(set(names), key=len, reverse=True)
        self._canonical = {name.lower(): name for name in ordered}
        self._pattern = re.compile(
            r"(?<!\w)(" + "|".join(map(re.escape, ordered)) + r")(?!\w)", re.IGNORECASE
        )

    def find(self, text: str) -> set[str]:
        return {self._canonical[match.lower()] for match in self._pattern.findall(text)}


def private_secrets(
    players: Iterable[FieldPlayer], sender: str, universe: set[str], *, start: float = 0.0
) -> list[Secret]:
    """A secret per card name the bot (``sender``) told each player privately, hidden from ``start`` on."""
    names = CardNames(universe)
    secrets = []
    for player in players:
        for _, text in player.private_from(sender):
            secrets += [Secret(name, frozenset({player.name}), start) for name in names.find(text)]
    return secrets


def hand_secrets(players: Iterable[FieldPlayer], universe: set[str], *, start: float = 0.0) -> list[Secret]:
    """A secret per card name the server showed a player moving into their own hand (a judge referee
    deals draws there instead of naming them in a private message): each player's own cards."""
    names = CardNames(universe)
    secrets = []
    for player in players:
        for item in player.received:
            game = player.games.get(item.game_id) if item.game_id is not None else None
            if item.kind != "Event_MoveCard" or game is None:
                continue
            if item.body.target_zone == "hand" and item.body.target_player_id == game.my_id:
                secrets += [
                    Secret(name, frozenset({player.name}), start) for name in names.find(item.body.card_name)
                ]
    return secrets


TURNED_UP = ("Event_FlipCard", "Event_MoveCard")
"""Game events that show a card's name when it is face up."""


def turned_up_for_all(readers: list[FieldPlayer], universe: set[str]) -> dict[str, float]:
    """When a card was first turned face up (flipped, or moved face up) in the sight of *every* reader:
    a judge referee turns cards up itself at the rules' reveal, with free game commands, so its chat line
    saying so may come seconds later when the chat budget is spent. A name some reader was not shown that
    way (a draw into a hand, a face-down move) is not public by it."""
    names = CardNames(universe)
    first: dict[str, dict[str, float]] = {}  # name -> reader -> when they were first shown it face up
    for reader in readers:
        for item in reader.received:
            if item.kind in TURNED_UP and not item.body.face_down:
                for name in names.find(item.body.card_name):
                    seen = first.setdefault(name, {})
                    seen[reader.name] = min(item.at, seen.get(reader.name, item.at))
    everyone = {reader.name for reader in readers}
    return {name: min(seen.values()) for name, seen in first.items() if set(seen) == everyone}


def find_leaks(readers: Iterable[FieldPlayer], secrets: list[Secret]) -> list[Leak]:
    """Every secret name a reader received while it was hidden from them."""
    if not secrets:
        return []
    names = CardNames(secret.name for secret in secrets)
    by_name: dict[str, list[Secret]] = {}
    for secret in secrets:
        by_name.setdefault(secret.name, []).append(secret)
    leaks = []
    for reader in readers:
        for item in reader.received:
            if reader.sender_of(item) == reader.name:  # their own words are never a leak
                continue
            for text in item.strings:
                if "<cockatrice_deck" in text:  # a deck list shared on load: what a deck holds, not where
                    continue
                for name in names.find(text):
                    hidden = any(
                        reader.name not in s.holders and s.start <= item.at < s.end for s in by_name[name]
                    )
                    known = any(reader.name in s.holders and s.start <= item.at for s in by_name[name])
                    if hidden and not known:
                        leaks.append(Leak(reader.name, name, item.kind, text, item.at))
    return leaks


def find_id_links(readers: Iterable[FieldPlayer], secrets: list[Secret]) -> list[Leak]:
    """Every secret a reader could work out from card ids instead of names: Servatrice gives each card an id
    (per owner), hands the id with the name to whoever is shown the card (a reveal, a face-up move), keeps it
    while the card stays hidden, and shows the id to everyone when the card moves face down into a public
    zone. A reader who once paired an id with a name therefore learns where that card went when it is dealt
    face down to another player. Ids are followed through moves (``new_card_id``)."""
    by_name: dict[str, list[Secret]] = {}
    for secret in secrets:
        by_name.setdefault(secret.name, []).append(secret)
    links = []
    for reader in readers:
        known: dict[
            tuple[int, int], str
        ] = {}  # (owner's player id, card id) -> the name the reader was shown
        for item in sorted(reader.received, key=lambda received: received.at):
            body = item.body
            if item.kind == "Event_RevealCards":
                for card in body.cards:
                    if card.name:
                        known[(item.player_id, card.id)] = card.name
                continue
            if item.kind != "Event_MoveCard":
                continue
            was = known.pop((body.start_player_id, body.card_id), None) if body.card_id >= 0 else None
            if (body.card_name or was) and body.new_card_id >= 0:
                known[(body.target_player_id, body.new_card_id)] = body.card_name or str(was)
            game = reader.games.get(item.game_id if item.game_id is not None else -1)
            to_another = game is None or body.target_player_id != game.my_id
            if not (was and body.face_down and not body.card_name and to_another):
                continue
            if any(reader.name not in s.holders and s.start <= item.at < s.end for s in by_name.get(was, ())):
                where = f"card {body.card_id} of {body.start_player_id}, face down to {body.target_player_id}"
                links.append(Leak(reader.name, was, "a card id", where, item.at))
    return links
