"""Safe file writes: a reader sees the old file or the whole new one, never half of it.

* The target must be a regular file or absent: a FIFO, a device, a socket or a folder in its place
  is refused and left untouched (:class:`UnsafeOutput`).
* A symbolic link stays a link: the file it points to is replaced (atomically, in that file's folder).
  A dangling link is followed into a folder that exists (its target is created, as ``open()`` would, so a
  link prepared for an output works the first time), but never creates folders: a link whose target's
  folder is missing is refused, naming both (it could point anywhere, even at the file system's root).
  A link that loops is refused.
* :func:`atomic_write_files` writes several files all together or not at all: every file is staged
  beside its target first, then renamed into place; if any step fails, the files already renamed are
  put back as they were (same bytes, same mode: the old file is kept under a second name, a hard link),
  the staged ones are removed, and so are the folders made for them.
* New files get the mode a plain ``open()`` would give them (0644 under umask 022).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path


class UnsafeOutput(OSError):
    """The output path holds something that must not be replaced by a file."""


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def writable_target(path: str | Path) -> Path:
    """The regular file that writing ``path`` should replace (a link's final target), or refuse.

    Raises:
        UnsafeOutput: ``path`` (or what a link points to) exists and is not a regular file, or the
            link loops.
    """
    target = Path(path)
    try:
        if target.is_symlink():
            try:
                target = target.resolve(strict=False)
            except RuntimeError as exc:  # a symlink loop (Python < 3.13)
                raise UnsafeOutput(f"{path} is a symbolic link that loops") from exc
            if target.is_symlink():  # still a link after resolving: a loop
                raise UnsafeOutput(f"{path} is a symbolic link that loops")
            _refuse_dangling(path, target)
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    except UnsafeOutput:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeOutput(f"{path} is a symbolic link that loops") from exc
        # a file where a folder should be (ENOTDIR), a name too long, no permission: said, not a traceback
        raise UnsafeOutput(f"{path} cannot be written: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
        raise UnsafeOutput(f"{path} is {kind}, not a regular file: it is left alone")
    return target


def _refuse_dangling(link: str | Path, target: Path) -> None:
    """Refuse a link whose target's folder does not exist (:class:`UnsafeOutput`), naming both: writing
    through it would create folders wherever the link points."""
    if os.path.lexists(target) or target.parent.is_dir():
        return
    raise UnsafeOutput(
        f"{link} is a symbolic link to {os.readlink(link)}, whose folder does not exist: nothing written"
        " (create that folder, or remove the link)"
    )


def writable_folder(path: str | Path) -> Path:
    """The folder a multi-file output goes into (a link's target): absent or a folder, else refuse.

    Raises:
        UnsafeOutput: ``path`` exists (or a link's target does) and is not a folder.
    """
    folder = Path(path)
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        if folder.is_symlink():  # dangling: the folder is made where it points, if that folder's parent is
            target = folder.resolve(strict=False)
            _refuse_dangling(path, target)
            return target
        return folder
    except OSError as exc:
        raise UnsafeOutput(f"{path} cannot be used as a folder: {exc.strerror or exc}") from exc
    if not stat.S_ISDIR(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "a file")
        raise UnsafeOutput(f"{path} is {kind}, not a folder: it is left alone")
    return folder


def _make_folders(folder: Path) -> list[Path]:
    """Make ``folder`` and its missing parents; return the ones made, outermost first."""
    missing: list[Path] = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    made: list[Path] = []
    for path in reversed(missing):
        if path.is_symlink():  # dangling (checked by writable_folder): made where it points
            path = path.resolve(strict=False)
        path.mkdir()
        made.append(path)
    return made


SIDE_NAME_BYTES = 40
"""The most UTF-8 bytes of the target's name a temporary or kept file's name begins with: a target whose
name takes nearly all of the file system's 255 bytes still gets a temporary file beside it."""


def _short(name: str) -> str:
    """The start of ``name`` for a file beside it (at most :data:`SIDE_NAME_BYTES`, whole characters)."""
    return name.encode("utf-8", errors="surrogateescape")[:SIDE_NAME_BYTES].decode("utf-8", errors="ignore")


def _keep_old(target: Path) -> str | None:
    """A second name for the file at ``target`` (a hard link, else a copy with its mode), to put it back."""
    if not target.exists():
        return None
    backup = target.parent / f".{_short(target.name)}.{secrets.token_hex(6)}.old"
    try:
        os.link(target, backup)
    except OSError:  # a file system without hard links
        copy = _stage(target, target.read_bytes())
        shutil.copymode(target, copy)
        return copy
    return str(backup)


def _stage(target: Path, data: bytes) -> str:
    """Write ``data`` to a temporary file beside ``target`` (whose folder exists); return its path."""
    fd, tmp = tempfile.mkstemp(prefix=f".{_short(target.name)}.", suffix=".tmp", dir=target.parent)
    try:
        # mkstemp makes a private (0600) file; give it the mode a plain open() would.
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return tmp


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename.

    Raises:
        UnsafeOutput: ``path`` is not a regular file (see :func:`writable_target`).
    """
    atomic_write_files({Path(path): data})


def atomic_write_files(files: Mapping[Path, bytes]) -> None:
    """Write every file, all together or not at all (see the module docstring).

    Raises:
        UnsafeOutput: one of the paths is not a regular file; nothing was written.
        OSError: a write or rename failed; nothing new was left behind.
    """
    targets = {writable_target(path): data for path, data in files.items()}
    made: list[Path] = []
    staged: dict[Path, str] = {}
    # (target, the old file's second name, None when there was none), recorded before each rename so
    # that a failed rename is undone too.
    replaced: list[tuple[Path, str | None]] = []
    try:
        for target, data in targets.items():
            made.extend(_make_folders(target.parent))
            staged[target] = _stage(target, data)
        for target, tmp in staged.items():
            replaced.append((target, _keep_old(target)))
            os.replace(tmp, target)
    except BaseException:
        for target, backup in reversed(replaced):
            with contextlib.suppress(OSError):
                if backup is None:
                    os.unlink(target)
                elif os.path.samefile(backup, target):  # this rename never happened
                    os.unlink(backup)
                else:
                    os.replace(backup, target)
        for tmp in staged.values():
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    for _, backup in replaced:
        if backup is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(backup)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_text(path: str | Path, text: str, *, encoding: str = "utf-8") -> None:
    """Text version of :func:`atomic_write_bytes` (``\\n`` line endings, no translation)."""
    atomic_write_bytes(path, text.encode(encoding))
