"""The errors the card-data layer raises: one for bad input data, one for unknown names."""

from __future__ import annotations

import contextlib
import contextvars
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from cockatrice_ext.decks.errors import line_place

_TRAILING_POSITION = re.compile(r",? line \d+, column \d+\s*$")
_COUNT_AFTER = re.compile(r"^(\S.*?)\s+[xX×*]\s?(\d{1,9})$")  # 'Counterspell x2': a count after the name
_TAG_MISMATCH = re.compile(r"^Opening and ending tag mismatch: (\S+) line (\d+) and (\S+)$")


class _XmlSyntaxError(Protocol):
    msg: str | None


class CardDataError(ValueError):
    """A card source could not be read: malformed XML/JSON/script, wrong kind of file, HTTP failure.

    ``source`` names the file (or URL) and ``line``/``column`` the position when known, so the
    message reads ``cards.xml:12:5: mismatched tag``.
    """

    def __init__(self, message: str, *, source: str = "", line: int | None = None, column: int | None = None):
        self.source = source
        self.line = line
        self.column = column
        self.reason = message
        where = source
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}" if where else message)


def xml_syntax_message(error: _XmlSyntaxError) -> str:
    """The reason of an lxml syntax error for people: without libxml's trailing ``line N, column M`` (the
    caller puts the position in front, as ``file:line:column``), and a tag mismatch said as such."""
    text = _TRAILING_POSITION.sub("", (error.msg or "").strip()) or "not well-formed"
    mismatch = _TAG_MISMATCH.match(text)
    if mismatch:
        opened, line, closing = mismatch.groups()
        return f"<{opened}> opened on line {line} is closed by </{closing}>"
    return text


def latin_letters(name: str) -> bool:
    """Whether every letter of ``name`` is a Latin one, as in every English card name: a name in another
    script (``稲妻``, ``Молния``) is a translation, which no card data here matches."""
    return all(unicodedata.name(ch, "").startswith("LATIN") for ch in name if ch.isalpha())


@dataclass(frozen=True)
class UnknownCard:
    """One deck line whose card name matched nothing."""

    name: str
    line: int = 0
    section: str = ""
    suggestions: tuple[str, ...] = ()
    reason: str = ""
    """Why a known name cannot be used (a melded back face); empty for a name nothing matched."""

    def _against_name(self, suggestion: str) -> str:
        """A suggestion as said, its difference shown when it differs from the name only by quote marks
        (``"Ach! Hans, Run!"`` for ``Ach! Hans, Run!``) or case, which would otherwise look the same."""
        quotes = "\"'\u201c\u201d\u2018\u2019 "
        if (
            suggestion == self.name
            or suggestion.strip(quotes).casefold() != self.name.strip(quotes).casefold()
        ):
            return suggestion
        if suggestion.strip(quotes) != suggestion:
            return f"{suggestion} (with its quote marks)"
        return f"{suggestion!r} (spelled so)"

    def describe(self, source: str = "", lines: Sequence[int] = ()) -> str:
        """``list.txt:12: unknown card 'X' (did you mean: ...?)``: where the name is, as every message about a
        list's lines says it (:func:`~cockatrice_ext.decks.errors.line_place`: ``FILE:LINE``, so an editor
        jumps to it; ``line 12`` without a ``source``), then what is wrong. ``lines``: every line the name is
        on (one name said once), else its own :attr:`line`; no place without a line."""
        places = [line for line in (lines or [self.line]) if line]
        where = f"{line_place(source, places)}: " if places else ""
        if self.reason:
            cards = f": {'; '.join(self.suggestions)}" if self.suggestions else ""
            return f"{where}{self.name!r} {self.reason}{cards}"
        shown = [self._against_name(suggestion) for suggestion in self.suggestions]
        notes = [f"did you mean: {'; '.join(shown)}?"] if shown else []  # names hold commas (Valki, God...)
        if not shown and not latin_letters(self.name):
            notes.append("not an English name: names are matched in English only")
        notes += self._count_hint()
        hint = f" ({'; '.join(notes)})" if notes else ""
        return f"{where}unknown card {self.name!r}{hint}"

    def _count_hint(self) -> list[str]:
        """How to write the count of a name that ends with one (``2 Counterspell x2``, ``Shock x1000``): a
        count after the name is read only on a line without one in front, up to the largest count."""
        after = _COUNT_AFTER.match(self.name)
        if after is None:
            return []
        name, count = after.groups()
        return [f"a card's count is written once, before its name: '{int(count)} {name}'"]


def once_per_name(unknown: Sequence[UnknownCard]) -> list[tuple[UnknownCard, list[int]]]:
    """Each unknown name once, in the order first met, with every line it is on: a name a list holds on
    several lines has the same suggestions on each, so it is said once with all its places
    (``cube.txt:16: lines 16 and 17: unknown card 'Dazzling Angel' ...``)."""
    named: dict[tuple[str, str], tuple[UnknownCard, list[int]]] = {}
    for card in unknown:
        first, lines = named.setdefault((card.name, card.reason), (card, []))
        if card.line and card.line not in lines:
            lines.append(card.line)
        if not first.suggestions and card.suggestions:  # the first said without them (past those shown)
            named[(card.name, card.reason)] = (card, lines)
    return list(named.values())


class UnknownCardsError(LookupError):
    """Some names in a deck or block list are not in the card database; ``unknown`` lists every line's, and
    the message says each name once with all its lines (:func:`once_per_name`)."""

    def __init__(self, unknown: list[UnknownCard], *, source: str = ""):
        self.unknown = list(unknown)
        self.source = source
        head = f"{source}: " if source else ""
        named = once_per_name(self.unknown)
        count = len(named)
        usable = any(u.reason for u in self.unknown)
        what = "card name(s) cannot be used" if usable else "unknown card name(s)"
        lines = [f"{head}{count} {what}:"]
        lines += [f"  {card.describe(source, places)}" for card, places in named[: self.SHOWN]]
        if count > self.SHOWN:
            lines.append(f"  ... and {count - self.SHOWN} more")
        if not all(u.reason for u in self.unknown):
            lines.append(self.HINT)
        super().__init__("\n".join(lines))

    SHOWN = 25
    """At most this many names are listed (each once, however many lines hold it); a count stands for the
    rest."""
    HINT = (
        "  (names are matched in English only: a translated name (Blitzschlag, Foudre, 稲妻) is unknown, so"
        " write the card's English name. Cards missing from the card data: the built-in data holds real"
        " cards up to April 2022 (MTGJSON 5.2.0); add a source with --card-source FILE, e.g. your custom"
        " set or Cockatrice cards.xml, 'cockatrice' or 'scryfall')"
    )
    """Said once under a list of unknown names: where such names can come from."""


Warn = Callable[[str], None]
"""Takes one warning about a card database, ``file:line: what`` (no ``warning:`` in front)."""

_WARN_TO: contextvars.ContextVar[Warn | None] = contextvars.ContextVar("card_data_warn", default=None)


@contextlib.contextmanager
def warnings_to(warn: Warn) -> Iterator[None]:
    """Within this context, a card file read without a ``warn`` of its own (a Cockatrice XML file, however
    deep the read: ``load_cards``, a custom set beside a list) tells ``warn``, not the log, what it gets
    wrong: so a command whose other card warnings are ``warning:`` lines says these the same way. Here, not
    beside the XML reader, so that setting it imports no XML parser."""
    token = _WARN_TO.set(warn)
    try:
        yield
    finally:
        _WARN_TO.reset(token)


def routed_warning() -> Warn | None:
    """Where :func:`warnings_to` sends card-file warnings now (``None``: to the log)."""
    return _WARN_TO.get()
