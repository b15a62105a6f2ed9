"""Private-page tokens: an unguessable secret bound to one player of one game, until that game ends.

A token is ``secrets.token_urlsafe(24)`` (192 random bits). The book keeps only each token's SHA-256,
so looking one up compares digests, never the secret itself, and nothing kept in memory is a usable
link. A token unlocks exactly one (game, player) grant: the game in the page's address must be the
grant's game, and the player is the grant's, whatever the request says. Revoking a game forgets all of
its tokens at once (the game ended, was abandoned or the bot left it).
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


@dataclass(frozen=True)
class Grant:
    """What a token unlocks: one engine player's view of one game, acting under their user name."""

    game_id: int
    player: Any
    name: str


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "replace")).digest()


class TokenBook:
    """Issued tokens (by digest), each bound to one grant."""

    def __init__(self) -> None:
        self._grants: dict[bytes, Grant] = {}
        self._issued: dict[tuple[int, Any], bytes] = {}

    def issue(self, game_id: int, player: Any, name: str) -> str:
        """A new token for ``player`` of ``game_id`` (replacing one issued to them before)."""
        old = self._issued.pop((game_id, player), None)
        if old is not None:
            self._grants.pop(old, None)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        digest = _digest(token)
        self._grants[digest] = Grant(game_id, player, name)
        self._issued[(game_id, player)] = digest
        return token

    def has_token(self, game_id: int, player: Any) -> bool:
        return (game_id, player) in self._issued

    def find(self, token: str, game_id: int) -> Grant | None:
        """The grant of ``token`` if it is live and bound to ``game_id``; None otherwise."""
        if not token or len(token) > MAX_TOKEN_LENGTH:
            return None
        grant = self._grants.get(_digest(token))
        if grant is None or grant.game_id != game_id:
            return None
        return grant

    def revoke_game(self, game_id: int) -> int:
        """Forget every token of ``game_id``; returns how many there were."""
        keys = [key for key in self._issued if key[0] == game_id]
        for key in keys:
            self._grants.pop(self._issued.pop(key), None)
        return len(keys)

    def games(self) -> set[int]:
        return {game_id for game_id, _ in self._issued}
