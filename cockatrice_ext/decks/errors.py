"""The one error type every deck and block-list reader raises, and where a message about a list's lines
points (:func:`line_place`: ``list.txt:12``, as compilers write it)."""

from __future__ import annotations

from collections.abc import Sequence

MAX_LINES_NAMED = 25
"""A message about several lines names this many of them at most; a count stands for the rest."""


def lines_named(lines: Sequence[int]) -> str:
    """``lines 2, 5 and 9`` (``line 2`` alone), at most :data:`MAX_LINES_NAMED` of them named."""
    shown = [str(line) for line in lines[:MAX_LINES_NAMED]]
    if len(lines) > MAX_LINES_NAMED:
        shown.append(f"{len(lines) - MAX_LINES_NAMED} more")
    if len(shown) == 1:
        return f"line {shown[0]}"
    return f"lines {', '.join(shown[:-1])} and {shown[-1]}"


def line_place(source: str, lines: int | Sequence[int]) -> str:
    """Where a warning or note about ``lines`` of the list ``source`` points, in one form for the readers,
    the resolver and the errors (:class:`DeckFormatError`): the compilers' ``file:line``
    (``list.txt:12``); a message about several lines points at the first and names them all
    (``list.txt:2: lines 2, 5 and 9``). Without a source (a list given as text), ``line 12``; without a
    line (0), the source alone."""
    named = [lines] if isinstance(lines, int) else list(lines)
    named = [line for line in named if line]
    if not named:
        return source
    if not source:
        return lines_named(named)
    if len(named) == 1:
        return f"{source}:{named[0]}"
    return f"{source}:{named[0]}: {lines_named(named)}"


class DeckFormatError(ValueError):
    """A deck or block list could not be read; names the source and (when known) the 1-based line.

    ``str(error)`` reads like a compiler message: ``blocks/my.txt:12: count must be positive``.
    """

    def __init__(self, message: str, *, source: str = "<text>", line: int = 0) -> None:
        self.message = message
        self.source = source
        self.line = line
        where = line_place(source, line)
        super().__init__(f"{where}: {message}")
