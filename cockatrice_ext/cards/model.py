"""The one card model every source fills and every exporter and engine reads.

A :class:`Card` is an oracle card (one per distinct name) with its faces and printings.
:class:`CardFacts` is the small, JSON-friendly projection the format engines need (so a
journaled game never depends on which card database was loaded when it is replayed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

COLORS = ("W", "U", "B", "R", "G")
RARITIES = ("common", "uncommon", "rare", "mythic", "special", "bonus", "token")
BASIC_LAND_NAMES = (
    "Plains",
    "Island",
    "Swamp",
    "Mountain",
    "Forest",
    "Wastes",
    "Snow-Covered Plains",
    "Snow-Covered Island",
    "Snow-Covered Swamp",
    "Snow-Covered Mountain",
    "Snow-Covered Forest",
    "Snow-Covered Wastes",
)
"""Basic lands: free in limited formats, and always part of the embedded card data."""


@dataclass(frozen=True)
class Printing:
    """One printing of a card in a set."""

    set_code: str
    collector_number: str = ""
    rarity: str = ""
    uuid: str = ""  # MTGJSON uuid when known
    scryfall_id: str = ""
    multiverse_id: str = ""
    set_name: str = ""
    release_date: str = ""
    pic_url: str = ""  # Cockatrice <set picURL=...>: the image of a spoiler or custom card
    # The back face's own picture, collector number and multiverse id, when its source gave them apart from
    # the front's (a custom double-faced card numbered 10a and 10b; Oracle and MTGJSON give each face of a
    # real one its own multiverse id); empty: the back shares the front's. Not compared: the same printing,
    # whichever file said so.
    back_pic_url: str = field(default="", compare=False)
    back_collector_number: str = field(default="", compare=False)
    back_multiverse_id: str = field(default="", compare=False)


@dataclass(frozen=True)
class Face:
    """One face of a card (a normal card has exactly one)."""

    name: str
    mana_cost: str = ""
    mana_value: float = 0.0
    colors: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    type_line: str = ""
    oracle_text: str = ""
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    side: str = "a"
    # Whether the face enters tapped, as a Cockatrice card database's ``<cipt>`` said it (a ``<card>``
    # without one said False); None from every other source: a writer then judges by the rules text.
    # Not compared: the same face, whichever file described it.
    cipt: bool | None = field(default=None, compare=False)
    # The table row a Cockatrice card database's ``<tablerow>`` gave the face (0-3: a designer's custom set
    # says where its cards sit); None when it gave none, or from every other source: writers then judge by
    # the card's types. Not compared, as ``cipt``.
    tablerow: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class CardRelation:
    """One Cockatrice ``<related>`` or ``<reverse-related>`` link, with the attributes the file gave it.

    Kept so a card database read from a file is written back with the same links (Cockatrice resolves
    the name across every database it loads, so links to cards elsewhere matter as much).
    ``reverse`` means the link came from ``<reverse-related>``: ``name`` makes the card holding it.
    ``count`` is the attribute as written (``"2"``, ``"x"``, ``"x=2"``; ``""`` when absent), ``attach``
    likewise (``"transform"`` links the faces of a double-faced card, anything else attaches); the flags
    stand for attributes Cockatrice reads by presence. ``face`` names the face whose ``<card>`` held
    the link when the card has several (``""``: the card's first, or only, one).
    """

    name: str
    reverse: bool = False
    count: str = ""
    attach: str = ""
    exclude: bool = False
    persistent: bool = False
    facedown: bool = False
    face: str = ""


@dataclass(frozen=True)
class Card:
    """An oracle card: its name, layout, faces and printings.

    ``name`` is the full name as MTGJSON spells it: ``"Fire // Ice"`` for split, adventure,
    and double-faced cards; ``faces[0].name`` is the front face.
    """

    name: str
    layout: str = "normal"
    faces: tuple[Face, ...] = ()
    color_identity: tuple[str, ...] = ()
    printings: tuple[Printing, ...] = ()
    is_token: bool = False
    related: tuple[str, ...] = ()  # names of tokens/cards this card makes or refers to
    # The links a Cockatrice card database gave the card, as written (``related`` lists the names).
    # Not compared: the same card, whichever file linked it so.
    relations: tuple[CardRelation, ...] = field(default=(), compare=False)

    # -- convenience views over the front face ---------------------------------
    @property
    def front(self) -> Face:
        return self.faces[0] if self.faces else Face(name=self.name)

    @property
    def mana_cost(self) -> str:
        return self.front.mana_cost

    @property
    def mana_value(self) -> float:
        """The card's mana value where it is not on the stack: a split or aftermath card's halves added
        (Fire // Ice is 4), any other card's front face's."""
        if self.layout in ("split", "aftermath") and len(self.faces) > 1:
            return sum(face.mana_value for face in self.faces)
        return self.front.mana_value

    @property
    def colors(self) -> tuple[str, ...]:
        seen: list[str] = []
        for face in self.faces:
            for c in face.colors:
                if c not in seen:
                    seen.append(c)
        return tuple(c for c in COLORS if c in seen)

    @property
    def types(self) -> tuple[str, ...]:
        return self.front.types

    @property
    def supertypes(self) -> tuple[str, ...]:
        return self.front.supertypes

    @property
    def subtypes(self) -> tuple[str, ...]:
        return self.front.subtypes

    @property
    def type_line(self) -> str:
        return self.front.type_line

    @property
    def oracle_text(self) -> str:
        if len(self.faces) > 1:
            return "\n//\n".join(f.oracle_text for f in self.faces)
        return self.front.oracle_text

    @property
    def power(self) -> str | None:
        return self.front.power

    @property
    def toughness(self) -> str | None:
        return self.front.toughness

    @property
    def loyalty(self) -> str | None:
        return self.front.loyalty

    @property
    def rarity(self) -> str:
        """Rarity of the first printing (blocks usually pin one with ``(SET) NUM``)."""
        return self.printings[0].rarity if self.printings else ""

    def is_type(self, card_type: str) -> bool:
        return card_type in self.front.types

    def facts(self, printing: Printing | None = None) -> CardFacts:
        """The projection the format engines use."""
        p = printing or (self.printings[0] if self.printings else None)
        return CardFacts(
            name=self.name,
            mana_value=int(self.mana_value),
            colors=self.colors,
            supertypes=self.supertypes,
            types=self.types,
            subtypes=self.subtypes,
            rarity=(p.rarity if p else "") or "",
            power=self.power,
            toughness=self.toughness,
            set_code=p.set_code if p else "",
            collector_number=p.collector_number if p else "",
        )


@dataclass(frozen=True)
class CardFacts:
    """What a format engine needs to know of a card; JSON-friendly and journal-stable."""

    name: str
    mana_value: int = 0
    colors: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    rarity: str = ""
    power: str | None = None
    toughness: str | None = None
    set_code: str = ""
    collector_number: str = ""

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def is_land(self) -> bool:
        return "Land" in self.types

    @property
    def is_basic_land(self) -> bool:
        return "Basic" in self.supertypes and "Land" in self.types

    @property
    def is_legendary_creature(self) -> bool:
        return "Legendary" in self.supertypes and "Creature" in self.types


@dataclass
class CardSet:
    """A set as a card database describes it (Cockatrice ``<set>``)."""

    code: str
    name: str = ""
    set_type: str = ""
    release_date: str = ""
    # The set's ``<priority>`` in a Cockatrice card database (0 Fallback, 10 Primary ... 100 Lowest; lower
    # sorts first); None from every other source, and where the file gave none: a writer then ranks the set.
    priority: int | None = None


@dataclass
class CardDatabase:
    """Cards by name plus the sets they come from; what every source loads into."""

    cards: dict[str, Card] = field(default_factory=dict)
    sets: dict[str, CardSet] = field(default_factory=dict)
    source: str = ""
    # creator name -> token/card names it makes, from Cockatrice ``reverse-related`` not yet applied
    reverse_related: dict[str, list[str]] = field(default_factory=dict)
    # folded name -> name, of cards known but not loaded (the shipped store): for "did you mean"
    name_hints: dict[str, str] = field(default_factory=dict)

    def add(self, card: Card) -> None:
        """Add ``card``; a second card of the same name merges its printings into the first."""
        old = self.cards.get(card.name)
        if old is None:
            self.cards[card.name] = card
            return
        have = {(p.set_code, p.collector_number, p.pic_url) for p in old.printings}
        extra = tuple(p for p in card.printings if (p.set_code, p.collector_number, p.pic_url) not in have)
        if extra:
            from dataclasses import replace

            self.cards[card.name] = replace(old, printings=old.printings + extra)

    def merge(self, other: CardDatabase) -> None:
        """Add every card and set of ``other`` (same rule as :meth:`add`: first definition wins)."""
        for code, card_set in other.sets.items():
            self.sets.setdefault(code, card_set)
        for card in other.cards.values():
            self.add(card)
        for creator, made in other.reverse_related.items():
            self.reverse_related.setdefault(creator, []).extend(made)
        if other.source and other.source not in self.source.split(" + "):
            self.source = f"{self.source} + {other.source}" if self.source else other.source

    def link_reverse_related(self) -> None:
        """Apply pending ``reverse-related`` links (token T says "C makes me") to the creators C."""
        from dataclasses import replace

        pending, self.reverse_related = self.reverse_related, {}
        faces: dict[str, str] | None = None
        for creator, made in pending.items():
            card = self.cards.get(creator)
            if card is None:
                # Cockatrice names each face of a double-faced card: the link lands on the whole card
                if faces is None:
                    faces = self._face_owners()
                card = self.cards.get(faces.get(creator, ""))
            if card is None:
                self.reverse_related[creator] = made  # creator may come in a later file
                continue
            extra = tuple(dict.fromkeys(n for n in made if n not in card.related))
            if extra:
                self.cards[card.name] = replace(card, related=card.related + extra)

    def _face_owners(self) -> dict[str, str]:
        """Face name -> the multi-face card holding it (``Delver of Secrets`` -> the whole card)."""
        owners: dict[str, str] = {}
        for name, card in self.cards.items():
            if len(card.faces) > 1:
                for face in card.faces:
                    owners.setdefault(face.name, name)
        return owners

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, name: object) -> bool:
        return name in self.cards
