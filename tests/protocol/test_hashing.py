"""Servatrice's salted SHA-512^1000 password hash, checked against an independent computation."""

from __future__ import annotations

import base64
import hashlib

from cockatrice_ext.protocol import hash_password


def _reference(password: str, salt: str) -> str:
    """From the description: salt + base64 of SHA-512 iterated 1000 times over utf8(salt + password)."""
    data = (salt + password).encode()
    for _ in range(1000):
        data = hashlib.new("sha512", data).digest()
    return salt + base64.standard_b64encode(data).decode()


def test_known_vector() -> None:
    # Cross-checked outside Python with a shell loop of `openssl dgst -sha512 -binary` and `base64`.
    expected = (
        "abcdefghijklmnop"
        "/rrdFncfJhWCfbcYUNwNPHZNj9y+9iuy/GWDWtnIWXPDaLKVUudAd83HHZ+oNI42bgbdCYP+OrncOTPj7BZ8UQ=="
    )
    assert _reference("secret", "abcdefghijklmnop") == expected
    assert hash_password("secret", "abcdefghijklmnop") == expected


def test_single_round_is_plain_sha512() -> None:
    digest = hashlib.sha512(b"saltpw").digest()
    assert hash_password("pw", "salt", rounds=1) == "salt" + base64.b64encode(digest).decode()


def test_non_ascii_password_is_utf8() -> None:
    assert hash_password("pässwörd", "0123456789ABCDEF") == _reference("pässwörd", "0123456789ABCDEF")
    assert hash_password("x", "s") != hash_password("y", "s")
