"""The one error type every deck and block-list reader raises."""

from __future__ import annotations


class DeckFormatError(ValueError):
    """A deck or block list could not be read; names the source and (when known) the 1-based line.

    ``str(error)`` reads like a compiler message: ``blocks/my.txt:12: count must be positive``.
    """

    def __init__(self, message: str, *, source: str = "<text>", line: int = 0) -> None:
        self.message = message
        self.source = source
        self.line = line
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {message}")
