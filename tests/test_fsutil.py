"""Safe writes: never clobber what is not a regular file, keep links, several files all or nothing."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main
from cockatrice_ext.fsutil import UnsafeOutput, atomic_write_bytes, atomic_write_files


def test_a_fifo_is_refused_and_left_alone(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeOutput, match="named pipe"):
        atomic_write_bytes(fifo, b"x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_folder_and_a_device_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UnsafeOutput, match="folder"):
        atomic_write_bytes(tmp_path, b"x")
    with pytest.raises(UnsafeOutput, match="character device"):
        atomic_write_bytes("/dev/null", b"x")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_link_stays_a_link_and_its_target_is_replaced(tmp_path: Path) -> None:
    real = tmp_path / "real.cod"
    real.write_bytes(b"old")
    link = tmp_path / "link.cod"
    link.symlink_to(real)
    atomic_write_bytes(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"
    dangling = tmp_path / "dangling.cod"
    dangling.symlink_to(tmp_path / "sub" / "made.cod")
    atomic_write_bytes(dangling, b"made")  # a dangling link: its target is created
    assert dangling.is_symlink() and (tmp_path / "sub" / "made.cod").read_bytes() == b"made"


def test_a_link_loop_is_refused(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(UnsafeOutput, match="loops"):
        atomic_write_bytes(a, b"x")


def test_several_files_all_or_nothing(tmp_path: Path) -> None:
    keep = tmp_path / "out" / "cube.dck"
    keep.parent.mkdir()
    keep.write_bytes(b"old cube")
    blocker = tmp_path / "out" / "draft"
    blocker.write_bytes(b"a file where a folder is needed")
    with pytest.raises(OSError):
        atomic_write_files({keep: b"new cube", blocker / "cube.draft": b"draft"})
    assert keep.read_bytes() == b"old cube"
    assert sorted(p.name for p in keep.parent.iterdir()) == ["cube.dck", "draft"]  # nothing staged left

    fifo = tmp_path / "out" / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeOutput):
        atomic_write_files({keep: b"new cube", fifo: b"x"})
    assert keep.read_bytes() == b"old cube"

    atomic_write_files({keep: b"new cube", tmp_path / "out" / "d" / "cube.draft": b"draft"})
    assert keep.read_bytes() == b"new cube"
    assert stat.S_IMODE(os.stat(keep).st_mode) == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_export_to_stdout_and_refusals(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["export", "auction-sample", "--to", "cod", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<?xml") and "<cockatrice_deck" in result.stdout
    assert not Path("-").exists()

    result = runner.invoke(main, ["export", "auction-sample", "--to", "forge-cube", "-o", "-"])
    assert result.exit_code == 2 and "folder of files" in result.output

    fifo = tmp_path / "deck.cod"
    os.mkfifo(fifo)
    result = runner.invoke(main, ["export", "auction-sample", "--to", "cod", "-o", str(fifo)])
    assert result.exit_code == 2 and "named pipe" in result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_an_empty_block_is_an_error_and_writes_nothing(tmp_path: Path) -> None:
    block = tmp_path / "empty.txt"
    block.write_text("# only a comment\n\n// and another\n")
    out = tmp_path / "out.cod"
    out.write_text("precious")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "cod", "-o", str(out)])
    assert result.exit_code != 0 and "lists no cards" in result.output
    assert out.read_text() == "precious"
