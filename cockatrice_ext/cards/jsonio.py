"""Opening JSON card files: plain, .gz or .xz, whole or streamed, with positioned errors; the cap on what a
compressed card source may decompress to (:class:`DecompressionBudget`), shared by every reader."""

from __future__ import annotations

import gzip
import io
import json
import lzma
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from cockatrice_ext.cards.errors import CardDataError

_CHUNK = 1 << 20
_XZ_MAGIC = b"\xfd7zXZ\x00"
_GZ_MAGIC = b"\x1f\x8b"

MAX_DECOMPRESSED_BYTES = 1 << 30
"""The most a compressed card source (a ``.gz`` or ``.xz`` file; a zip's members together) may decompress to:
twice MTGJSON's AllPrintings.json (about half a gigabyte), so that a small file made to expand without end
(a decompression bomb) is refused before it takes the machine's memory (the reader holds what it
decompressed: the second attack measured 2.1 GB at a 2 GiB cap). Plain files are not capped: their size is
what the user sees."""

DECOMPRESSION_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error)
"""What reading a damaged compressed file raises (gzip's ``BadGzipFile`` is an ``OSError``)."""


def _gib(count: int) -> str:
    """A byte count for people: ``2 GiB``, ``1.5 MiB``, ``512 bytes``."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count} bytes"


class DecompressionBudget:
    """What one compressed card source may still decompress to (:data:`MAX_DECOMPRESSED_BYTES`), counted
    as it is read. One budget serves every member of an archive, so many small members cannot add up to a
    bomb either. Going over raises :class:`CardDataError` naming the source and the limit."""

    def __init__(self, label: str, limit: int | None = None) -> None:
        self.label = label
        self.limit = MAX_DECOMPRESSED_BYTES if limit is None else limit
        self.used = 0

    def spend(self, count: int) -> None:
        """Count ``count`` more decompressed bytes; raise when the source is past its limit."""
        self.used += count
        if self.used > self.limit:
            raise CardDataError(
                f"decompresses to more than {_gib(self.limit)}, the limit for compressed card data"
                " (a decompression bomb?); if it is real card data, decompress it and give the plain file",
                source=self.label,
            )

    def stream(self, decompressed: IO[bytes]) -> IO[bytes]:
        """``decompressed`` (a ``gzip``/``lzma``/zip member stream) read through this budget."""
        return io.BufferedReader(_CappedReader(decompressed, self), buffer_size=_CHUNK)

    def read(self, decompressed: IO[bytes], most: int | None = None) -> bytes:
        """``decompressed`` (closed after), or its first ``most`` bytes (read at once: an archive member,
        small), counted against this budget."""
        if most is None:
            with self.stream(decompressed) as capped:
                return bytes(_read_whole(capped))
        with decompressed:
            data = decompressed.read(most)
        self.spend(len(data))
        return data


class _CappedReader(io.RawIOBase):
    """A decompressed stream whose every byte is counted against a :class:`DecompressionBudget`."""

    def __init__(self, inner: IO[bytes], budget: DecompressionBudget) -> None:
        super().__init__()
        self._inner = inner
        self._budget = budget

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._inner.read(len(buffer))
        self._budget.spend(len(data))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._inner.close()
        super().close()


class CountingReader(io.RawIOBase):
    """A read-only file wrapper that reports how many raw bytes were read (for progress bars)."""

    def __init__(self, inner: IO[bytes], report: Callable[[int], None]) -> None:
        super().__init__()
        self._inner = inner
        self._report = report

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self._inner.seekable()

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._inner.seek(offset, whence)

    def tell(self) -> int:
        return self._inner.tell()

    def readinto(self, buffer: Any) -> int:
        data = self._inner.read(len(buffer))
        buffer[: len(data)] = data
        if data:
            self._report(len(data))
        return len(data)

    def close(self) -> None:
        self._inner.close()
        super().close()


def open_binary(path: str | Path, progress: Callable[[int], None] | None = None) -> IO[bytes]:
    """Open ``path`` for reading, transparently decompressing gzip and xz (by magic bytes), at most
    :data:`MAX_DECOMPRESSED_BYTES` of it.

    ``progress`` is called with the number of raw (compressed) bytes each time some are read.
    """
    label = str(path)
    try:
        raw: IO[bytes] = open(path, "rb")  # noqa: SIM115 - handed to the caller
    except OSError as exc:
        raise CardDataError(f"cannot open: {exc.strerror or exc}", source=label) from exc
    if progress is not None:
        raw = io.BufferedReader(CountingReader(raw, progress), buffer_size=_CHUNK)  # type: ignore[arg-type]
    head = raw.read(6)
    raw.seek(0)
    if head.startswith(_XZ_MAGIC):
        return DecompressionBudget(label).stream(lzma.open(raw))  # type: ignore[arg-type]
    if head.startswith(_GZ_MAGIC):
        return DecompressionBudget(label).stream(gzip.open(raw))  # type: ignore[arg-type]
    return raw


def peek(path: str | Path, size: int = 4096) -> bytes:
    """The first ``size`` decompressed bytes of ``path`` (for sniffing the kind of file)."""
    try:
        with open_binary(path) as handle:
            return handle.read(size)
    except DECOMPRESSION_ERRORS as exc:
        raise CardDataError(f"cannot read: {exc}", source=str(path)) from exc


def _position_error(exc: json.JSONDecodeError, label: str, offset_line: int = 0) -> CardDataError:
    return CardDataError(
        f"malformed JSON: {exc.msg}", source=label, line=exc.lineno + offset_line, column=exc.colno
    )


def _read_whole(handle: IO[bytes]) -> bytearray:
    """Every byte of ``handle``, read in chunks (a decompressed stream's cap is met after at most one more
    chunk, and the bytes read are let go when it is)."""
    data = bytearray()
    try:
        while chunk := handle.read(_CHUNK):
            data += chunk
    except BaseException:
        data.clear()  # the traceback keeps this frame alive: not the bytes
        raise
    return data


def load_json(path: str | Path, progress: Callable[[int], None] | None = None) -> Any:
    """``json.load`` of a possibly compressed file; errors become :class:`CardDataError` (a compressed file
    past :data:`MAX_DECOMPRESSED_BYTES`, or one this machine has not the memory to hold, included)."""
    label = str(path)
    try:
        with open_binary(path, progress) as handle:
            data = _read_whole(handle)
        return json.loads(data)
    except json.JSONDecodeError as exc:
        raise _position_error(exc, label) from exc
    except (*DECOMPRESSION_ERRORS, UnicodeDecodeError, RecursionError) as exc:
        raise CardDataError(f"cannot read JSON: {exc}", source=label) from exc
    except MemoryError:
        data = bytearray()  # let go of what was read before saying so
        raise CardDataError("not enough memory to read this card file", source=label) from None


def iter_json_array(stream: IO[bytes], label: str) -> Iterator[Any]:
    """Yield the items of a top-level JSON array one by one without holding the whole file.

    Works on any layout (Scryfall writes one object per line, but nothing depends on that).
    """
    decoder = json.JSONDecoder()
    text = io.TextIOWrapper(stream, encoding="utf-8", errors="strict")
    buffer = ""
    consumed_lines = 0  # newlines dropped from the front of ``buffer`` so far
    eof = False
    started = False

    def fill() -> bool:
        nonlocal buffer, eof
        if eof:
            return False
        chunk = text.read(_CHUNK)
        if not chunk:
            eof = True
            return False
        buffer += chunk
        return True

    def drop(count: int) -> None:
        nonlocal buffer, consumed_lines
        consumed_lines += buffer.count("\n", 0, count)
        buffer = buffer[count:]

    def fail(message: str) -> CardDataError:
        return CardDataError(message, source=label, line=consumed_lines + 1)

    try:
        while True:
            stripped = len(buffer) - len(buffer.lstrip())
            drop(stripped)
            if not buffer:
                if not fill():
                    raise fail("unexpected end of file: expected a JSON array")
                continue
            if not started:
                if buffer[0] != "[":
                    raise fail("expected a JSON array of card objects")
                started = True
                drop(1)
                continue
            if buffer[0] == "]":
                return
            if buffer[0] == ",":
                drop(1)
                continue
            try:
                item, end = decoder.raw_decode(buffer)
            except json.JSONDecodeError as exc:
                if fill():
                    continue
                raise _position_error(exc, label, consumed_lines) from exc
            if end >= len(buffer) and not eof and isinstance(item, (int, float)):
                fill()  # a number might continue in the next chunk
                continue
            drop(end)
            yield item
    except UnicodeDecodeError as exc:
        raise fail(f"not UTF-8: {exc.reason}") from exc
    except (*DECOMPRESSION_ERRORS, RecursionError) as exc:
        raise fail(f"cannot read JSON: {exc}") from exc
