"""What the web view keeps in the journal, so that the links it gave still open after the bot restarts.

A player's private page is a link in their private messages, often open in a browser tab whose live
stream reconnects by itself. A restarted bot that forgot its links would have to send every player a new
one (each a chat message, the scarcest budget) and every open tab would die. So the web view writes, as
journal notes under ``SERVER:web:``:

* each issued grant, under the SHA-256 of its token (never the token: a reader of the journal learns no
  link), dropped when the grant is revoked (the game or league ended, the player left the lobby), and
  the address the links point to: a process serving elsewhere (another ``--web`` port or ``--web-url``)
  forgets them, and its players get new links;
* each league's page number by the league's ``page_key`` (a lobby's, kept by the league started from it),
  and the next number to give, so that a number never names two leagues.

A fleet keeps all of this in memory, as it keeps its lobbies: its processes each serve their own pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cockatrice_ext.web.tokens import Grant

PLACE_KINDS = ("game", "league")


@dataclass
class KeptPages:
    """The web view's notes in the journal: grants by digest, league page numbers by page key."""

    journal: Any
    server_key: str
    grants: dict[bytes, Grant] = field(default_factory=dict)
    numbers: dict[str, int] = field(default_factory=dict)
    next_number: int = 1

    @property
    def prefix(self) -> str:
        return f"{self.server_key}:web:"

    def load(self, address: str | None) -> None:
        """Read what an earlier process kept (a note that does not read as ours is dropped, not guessed).
        ``address``: where this process's links point (None: a port of the moment, which no later process
        will have). Links given at another address are forgotten: their players must get new ones."""
        notes = self.journal.notes(self.prefix)
        same_address = address is not None and notes.pop(f"{self.prefix}address", {}).get("url") == address
        if address is not None:
            self.journal.put_note(f"{self.prefix}address", {"url": address})
        for key, note in notes.items():
            what, _, rest = key[len(self.prefix) :].partition(":")
            if what == "token" and same_address and (grant := _grant(note)) is not None:
                try:
                    self.grants[bytes.fromhex(rest)] = grant
                    continue
                except ValueError:
                    pass
            elif what == "page" and rest and _is_number(note.get("number")):
                self.numbers[rest] = int(note["number"])
                continue
            elif what == "next" and not rest and _is_number(note.get("number")):
                self.next_number = max(self.next_number, int(note["number"]))
                continue
            self.journal.drop_note(key)
        self.next_number = max([self.next_number, *(n + 1 for n in self.numbers.values())])

    def grant_changed(self, digest: bytes, grant: Grant | None) -> None:
        """The token book's keeper: write an issued grant, drop a revoked one."""
        key = f"{self.prefix}token:{digest.hex()}"
        if grant is None:
            self.journal.drop_note(key)
            return
        kind, number = grant.place
        value = {"kind": kind, "number": number, "player": grant.player, "name": grant.name}
        self.journal.put_note(key, value)

    def number_given(self, page_key: str, number: int) -> None:
        self.journal.put_note(f"{self.prefix}page:{page_key}", {"number": number})
        self.journal.put_note(f"{self.prefix}next", {"number": number + 1})

    def number_dropped(self, page_key: str) -> None:
        self.journal.drop_note(f"{self.prefix}page:{page_key}")


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _grant(note: dict[str, Any]) -> Grant | None:
    """A kept grant, if the note reads as one (a player is a user name or a server's player id)."""
    kind, number, player, name = (note.get(k) for k in ("kind", "number", "player", "name"))
    if kind not in PLACE_KINDS or not _is_number(number) or not isinstance(name, str) or not name:
        return None
    if not isinstance(player, str | int) or isinstance(player, bool):
        return None
    return Grant((str(kind), int(number)), player, name)
