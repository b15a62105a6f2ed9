"""Opening JSON card files: plain, .gz or .xz, whole or streamed, with positioned errors."""

from __future__ import annotations

import gzip
import io
import json
import lzma
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from cockatrice_ext.cards.errors import CardDataError

_CHUNK = 1 << 20
_XZ_MAGIC = b"\xfd7zXZ\x00"
_GZ_MAGIC = b"\x1f\x8b"


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
    """Open ``path`` for reading, transparently decompressing gzip and xz (by magic bytes).

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
        return lzma.open(raw)  # type: ignore[return-value]
    if head.startswith(_GZ_MAGIC):
        return gzip.open(raw)  # type: ignore[return-value]
    return raw


def peek(path: str | Path, size: int = 4096) -> bytes:
    """The first ``size`` decompressed bytes of ``path`` (for sniffing the kind of file)."""
    try:
        with open_binary(path) as handle:
            return handle.read(size)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise CardDataError(f"cannot read: {exc}", source=str(path)) from exc


def _position_error(exc: json.JSONDecodeError, label: str, offset_line: int = 0) -> CardDataError:
    return CardDataError(
        f"malformed JSON: {exc.msg}", source=label, line=exc.lineno + offset_line, column=exc.colno
    )


def load_json(path: str | Path, progress: Callable[[int], None] | None = None) -> Any:
    """``json.load`` of a possibly compressed file; errors become :class:`CardDataError`."""
    label = str(path)
    try:
        with open_binary(path, progress) as handle:
            data = handle.read()
        return json.loads(data)
    except json.JSONDecodeError as exc:
        raise _position_error(exc, label) from exc
    except (OSError, EOFError, lzma.LZMAError, UnicodeDecodeError, RecursionError) as exc:
        raise CardDataError(f"cannot read JSON: {exc}", source=label) from exc


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
    except (OSError, EOFError, lzma.LZMAError, RecursionError) as exc:
        raise fail(f"cannot read JSON: {exc}") from exc
