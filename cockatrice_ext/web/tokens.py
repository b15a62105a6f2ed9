"""Private-page tokens: an unguessable secret bound to one player of one game or league, until it ends.

A token is ``secrets.token_urlsafe(24)`` (192 random bits). The book keeps only each token's SHA-256,
so looking one up compares digests, never the secret itself, and nothing kept in memory is a usable
link. A token unlocks exactly one (place, player) grant, a place being ``("game", N)`` or ``("league", N)``:
the place in the page's address must be the grant's, and the player is the grant's, whatever the request
says. Revoking a place forgets all of its tokens at once (the game or league ended, was abandoned or the
bot left it); revoking one player's token forgets only theirs (they left a league's lobby).

A book may be kept (``keep``): it is told of every grant issued or revoked, by digest, so that the web
view can write them to the journal and a restarted bot honours the links it gave before (:meth:`load`).
Only digests are kept: a journal's reader learns no link.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TOKEN_BYTES = 24
"""Random bytes per token: 192 bits, well above the 128 bits the issue asks for."""
MAX_TOKEN_LENGTH = 64
"""Anything longer is not one of ours and is refused before hashing."""


Place = tuple[str, int]
"""Where a token is valid: ``("game", game_id)`` or ``("league", league_number)``."""


@dataclass(frozen=True)
class Grant:
    """What a token unlocks: one player's view of one game or league, acting under their user name."""

    place: Place
    player: Any
    name: str


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "replace")).digest()


Keeper = Callable[[bytes, "Grant | None"], None]
"""Told of each grant issued (``digest, grant``) and revoked (``digest, None``)."""


class TokenBook:
    """Issued tokens (by digest), each bound to one grant."""

    def __init__(self, keep: Keeper | None = None) -> None:
        self._grants: dict[bytes, Grant] = {}
        self._issued: dict[tuple[Place, Any], bytes] = {}
        self._keep = keep

    def issue(self, place: Place, player: Any, name: str) -> str:
        """A new token for ``player`` of ``place`` (replacing one issued to them before)."""
        self.revoke_player(place, player)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        digest, grant = _digest(token), Grant(place, player, name)
        self.load(digest, grant)
        if self._keep is not None:
            self._keep(digest, grant)
        return token

    def load(self, digest: bytes, grant: Grant) -> None:
        """Honour a token known only by its digest (a kept grant, after a restart)."""
        self.revoke_player(grant.place, grant.player)
        self._grants[digest] = grant
        self._issued[(grant.place, grant.player)] = digest

    def has_token(self, place: Place, player: Any, name: str | None = None) -> bool:
        """Whether ``player`` of ``place`` holds a live token (issued to ``name``, when given: a game
        number a restarted server gave again may seat someone else under the same player id)."""
        digest = self._issued.get((place, player))
        if digest is None:
            return False
        return name is None or self._grants[digest].name == name

    def find(self, token: str, place: Place) -> Grant | None:
        """The grant of ``token`` if it is live and bound to ``place``; None otherwise."""
        if not token or len(token) > MAX_TOKEN_LENGTH:
            return None
        grant = self._grants.get(_digest(token))
        if grant is None or grant.place != place:
            return None
        return grant

    def revoke(self, place: Place) -> int:
        """Forget every token of ``place``; returns how many there were."""
        keys = [key for key in self._issued if key[0] == place]
        for key in keys:
            self._forget(self._issued.pop(key))
        return len(keys)

    def revoke_player(self, place: Place, player: Any) -> bool:
        """Forget ``player``'s token of ``place``; whether they had one."""
        digest = self._issued.pop((place, player), None)
        if digest is None:
            return False
        self._forget(digest)
        return True

    def _forget(self, digest: bytes) -> None:
        self._grants.pop(digest, None)
        if self._keep is not None:
            self._keep(digest, None)

    def places(self) -> set[Place]:
        return {place for place, _ in self._issued}
