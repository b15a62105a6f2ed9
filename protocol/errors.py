"""The protocol layer's exception family.

``ProtocolError`` is the single base the client catches.  ``LocalProtocolError`` means *we* asked for
something the protocol (or the connection's current state) does not allow; ``RemoteProtocolError`` means the
*peer* sent something unusable (bad framing, absurd length, unparsable protobuf, wrong protocol version).
After a ``RemoteProtocolError`` the connection is in state ``ERROR`` and must be dropped.
"""

from __future__ import annotations

__all__ = ["LocalProtocolError", "ProtocolError", "RemoteProtocolError"]


class ProtocolError(Exception):
    """Base class for every error raised by :mod:`cockatrice_ext.protocol`."""


class LocalProtocolError(ProtocolError):
    """Our own side tried something illegal (wrong state, bad argument, frame too large to send)."""


class RemoteProtocolError(ProtocolError):
    """The server sent bytes we cannot accept; the connection is unusable afterwards."""
