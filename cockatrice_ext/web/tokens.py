"""Private-page tokens: an unguessable secret bound to one player of one game or league, until it ends.

A token is ``secrets.token_urlsafe(24)`` (192 random bits). The book keeps only each token's SHA-256,
so looking one up compares digests, never the secret itself, and nothing kept in memory is a usable
link. A token unlocks exactly one (place, player) grant, a place being ``("game", N)`` or ``("league", N)``:
the place in the page's address must be the grant's, and the player is the grant's, whatever the request
says. Revoking a place forgets all of its tokens at once (the game or league ended, was abandoned or the
bot left it); revoking one player's token forgets only theirs (they left a league's lobby).
"""

from __future__ import annotations

import hashlib
import secrets
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


class TokenBook:
    """Issued tokens (by digest), each bound to one grant."""

    def __init__(self) -> None:
        self._grants: dict[bytes, Grant] = {}
        self._issued: dict[tuple[Place, Any], bytes] = {}

    def issue(self, place: Place, player: Any, name: str) -> str:
        """A new token for ``player`` of ``place`` (replacing one issued to them before)."""
        old = self._issued.pop((place, player), None)
        if old is not None:
            self._grants.pop(old, None)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        digest = _digest(token)
        self._grants[digest] = Grant(place, player, name)
        self._issued[(place, player)] = digest
        return token

    def has_token(self, place: Place, player: Any) -> bool:
        return (place, player) in self._issued

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
            self._grants.pop(self._issued.pop(key), None)
        return len(keys)

    def revoke_player(self, place: Place, player: Any) -> bool:
        """Forget ``player``'s token of ``place``; whether they had one."""
        digest = self._issued.pop((place, player), None)
        if digest is None:
            return False
        self._grants.pop(digest, None)
        return True

    def places(self) -> set[Place]:
        return {place for place, _ in self._issued}
