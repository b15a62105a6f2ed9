"""The operator's ``--web`` and ``--web-url`` values, checked before anything starts."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

DEFAULT_HOST = "127.0.0.1"
_ADDRESS = re.compile(r"(?:(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]*):)?(?P<port>[0-9]{1,5})")


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[IPv6]:PORT``, ``:PORT`` or ``PORT`` -> (host, port); the host defaults to loopback.

    Raises:
        ValueError: one line saying what is wrong.
    """
    match = _ADDRESS.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{text[:60]!r} is not HOST:PORT (for example 127.0.0.1:8080)")
    port = int(match["port"])
    if not 1 <= port <= 65535:
        raise ValueError(f"port {port} is not between 1 and 65535")
    host = (match["host"] or DEFAULT_HOST).strip("[]")
    return host or DEFAULT_HOST, port


def check_public_url(text: str) -> str:
    """The public base URL players are sent (``https://host/path``), without a trailing slash.

    Raises:
        ValueError: not an http(s) URL with a host, or it carries a query or fragment.
    """
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{text[:60]!r} is not an http:// or https:// address")
    if parts.query or parts.fragment:
        raise ValueError("the public URL must not have a ?query or #fragment")
    return text.strip().rstrip("/")
