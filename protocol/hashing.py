"""Servatrice's salted password hash, used for ``Command_Login.hashed_password``.

``hash = salt + base64(SHA512^1000(utf8(salt + password)))``: SHA-512 applied 1000 times, each round hashing
the previous digest.  The salt comes from ``Response_PasswordSalt`` (the first 16 characters of the
stored hash).
"""

from __future__ import annotations

import base64
import hashlib

__all__ = ["HASH_ROUNDS", "hash_password"]

HASH_ROUNDS = 1000


def hash_password(password: str, salt: str, *, rounds: int = HASH_ROUNDS) -> str:
    """Return what Servatrice stores for ``password`` with ``salt`` (and accepts as ``hashed_password``)."""
    digest = (salt + password).encode("utf-8")
    for _ in range(rounds):
        digest = hashlib.sha512(digest).digest()
    return salt + base64.b64encode(digest).decode("ascii")
