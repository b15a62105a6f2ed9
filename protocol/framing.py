"""Message framing for Servatrice's two transports.

Theory of operation
-------------------
*TCP* (port 4747): every protobuf message is preceded by its length as a 4-byte big-endian unsigned integer.
Two v14 quirks: right after connecting, the server writes an unframed XML preamble
(``<?xml version="1.0"?><cockatrice_server_stream version="14">``, 60 bytes) which we skip; and it sends
nothing else until the client has sent one ``CommandContainer`` *without* ``cmd_id``.  An empty container
serialises to zero bytes, so that hello is the frame ``b"\\0\\0\\0\\0"`` (:data:`TCP_HELLO`).

*WebSocket* (port 4748): one protobuf message per binary WebSocket message, no prefix and no preamble, so
there is nothing to decode here beyond the size cap; :class:`MessageSizeGuard` applies it.

Both decoders refuse frames above ``max_frame_size`` as soon as the length is known, so a hostile peer
cannot make us buffer without bound.  The default (4 MiB) leaves room for ``Event_GameStateChanged`` of big
games, which can exceed 1 MiB.
"""

from __future__ import annotations

import logging
import struct

from .errors import LocalProtocolError, RemoteProtocolError

__all__ = [
    "DEFAULT_MAX_FRAME_SIZE",
    "LENGTH_PREFIX",
    "MAX_PREAMBLE_SIZE",
    "TCP_HELLO",
    "MessageSizeGuard",
    "TcpFrameDecoder",
    "encode_tcp_frame",
]

LOGGER = logging.getLogger(__name__)

DEFAULT_MAX_FRAME_SIZE = 4 * 1024 * 1024
"""Largest payload we accept (or send) by default, in bytes."""

LENGTH_PREFIX = struct.Struct(">I")
"""The TCP length prefix: 4-byte big-endian unsigned."""

TCP_HELLO = LENGTH_PREFIX.pack(0)
"""The first thing a TCP client sends: an empty ``CommandContainer`` (no ``cmd_id``), i.e. 4 zero bytes."""

PREAMBLE_START = b"<?xm"
"""How the legacy XML preamble starts (the desktop client checks exactly these 4 bytes)."""

PREAMBLE_END = b"<cockatrice_server_stream"
"""The preamble ends with the ``>`` closing this start tag."""

MAX_PREAMBLE_SIZE = 512
"""The real preamble is 60 bytes; anything that has not ended by here is garbage."""


def encode_tcp_frame(payload: bytes, *, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> bytes:
    """Prefix ``payload`` with its 4-byte big-endian length.

    Raises:
        LocalProtocolError: the payload is larger than ``max_frame_size`` (the server would drop it anyway).
    """
    if len(payload) > max_frame_size:
        raise LocalProtocolError(
            f"outgoing frame of {len(payload)} bytes exceeds the {max_frame_size}-byte cap"
        )
    return LENGTH_PREFIX.pack(len(payload)) + payload


class TcpFrameDecoder:
    """Split a TCP byte stream into protobuf payloads (sans-I/O, incremental).

    Feed arbitrary chunks with :meth:`feed`; pull complete payloads with :meth:`next_frame`.  Memory held is
    the unconsumed input only, and an incomplete frame can never announce more than ``max_frame_size`` bytes.
    """

    def __init__(self, *, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE, expect_preamble: bool = True) -> None:
        if max_frame_size < 0:
            raise ValueError(f"max_frame_size must be >= 0, got {max_frame_size!r}")
        self.max_frame_size = max_frame_size
        self._buffer = bytearray()
        self._offset = 0  # start of unconsumed data in _buffer; compacted lazily to keep feeding O(n)
        self._at_stream_start = expect_preamble
        self._eof = False

    @property
    def buffered(self) -> int:
        """Bytes received but not yet returned as (part of) a frame."""
        return len(self._buffer) - self._offset

    def feed(self, data: bytes) -> None:
        """Append received bytes.  ``b""`` is ignored; use :meth:`feed_eof` for end of stream."""
        if self._eof and data:
            raise LocalProtocolError("data fed after end of stream")
        if self._offset and self._offset * 2 >= len(self._buffer):
            del self._buffer[: self._offset]
            self._offset = 0
        self._buffer += data

    def feed_eof(self) -> None:
        """Mark the end of the stream; :meth:`next_frame` raises if a frame was cut short."""
        self._eof = True

    def next_frame(self) -> bytes | None:
        """Return the next complete payload, or ``None`` if more data is needed (or the stream ended cleanly).

        Raises:
            RemoteProtocolError: a frame announces more than ``max_frame_size`` bytes, the preamble is
                malformed, or the stream ended in the middle of a frame.
        """
        if self._at_stream_start and not self._skip_preamble():
            return self._need_more()
        available = len(self._buffer) - self._offset
        if available < LENGTH_PREFIX.size:
            return self._need_more()
        (length,) = LENGTH_PREFIX.unpack_from(self._buffer, self._offset)
        if length > self.max_frame_size:
            raise RemoteProtocolError(
                f"server announced a {length}-byte frame, above the {self.max_frame_size}-byte cap"
            )
        if available < LENGTH_PREFIX.size + length:
            return self._need_more()
        start = self._offset + LENGTH_PREFIX.size
        payload = bytes(self._buffer[start : start + length])
        self._offset = start + length
        if self._offset == len(self._buffer):
            self._buffer.clear()
            self._offset = 0
        return payload

    def _need_more(self) -> None:
        """Report "no frame yet", or fail if the stream has ended with a partial frame buffered."""
        if self._eof and self.buffered:
            raise RemoteProtocolError(
                f"connection closed in the middle of a frame ({self.buffered} bytes left)"
            )
        return None

    def _skip_preamble(self) -> bool:
        """Consume the legacy XML preamble if present; return True once the stream start is behind us."""
        head = bytes(self._buffer[self._offset : self._offset + len(PREAMBLE_START)])
        if not PREAMBLE_START.startswith(head[: len(PREAMBLE_START)]):
            self._at_stream_start = False  # no preamble: framed data from the first byte
            return True
        if len(head) < len(PREAMBLE_START):
            return False  # could still be the preamble: wait for 4 bytes
        window = bytes(self._buffer[self._offset : self._offset + MAX_PREAMBLE_SIZE])
        tag = window.find(PREAMBLE_END)
        close = window.find(b">", tag + len(PREAMBLE_END)) if tag >= 0 else -1
        if close < 0:
            if len(window) >= MAX_PREAMBLE_SIZE:
                raise RemoteProtocolError(f"malformed XML preamble from server: {window[:80]!r}")
            return False
        LOGGER.debug("skipped %d-byte legacy XML preamble", close + 1)
        self._offset += close + 1
        self._at_stream_start = False
        return True


class MessageSizeGuard:
    """WebSocket counterpart of :class:`TcpFrameDecoder`: one message is one payload; size is checked."""

    def __init__(self, *, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self.max_frame_size = max_frame_size

    def check(self, message: bytes) -> bytes:
        """Return ``message`` unchanged.

        Raises:
            RemoteProtocolError: the message is larger than ``max_frame_size``.
        """
        if len(message) > self.max_frame_size:
            raise RemoteProtocolError(
                f"websocket message of {len(message)} bytes exceeds the {self.max_frame_size}-byte cap"
            )
        return message
