"""Safe writes: never clobber what is not a regular file, keep links, several files all or nothing."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_a_dangling_link_makes_its_file_but_never_folders(tmp_path: Path) -> None:
    """Following a dangling link made its target and every missing folder above it, wherever it pointed:
    now a link into a missing folder is refused and nothing is made; one into a folder that exists makes
    its file, as open() would (a link prepared for an output works the first time)."""
    dangling = tmp_path / "dangling.cod"
    dangling.symlink_to(tmp_path / "sub" / "made.cod")
    with pytest.raises(UnsafeOutput, match=r"dangling.cod is a symbolic link to .*made.cod, whose folder"):
        atomic_write_bytes(dangling, b"made")
    assert dangling.is_symlink() and not (tmp_path / "sub").exists()
    with pytest.raises(UnsafeOutput, match="whose folder does not exist"):
        atomic_write_files({tmp_path / "ok.cod": b"x", dangling: b"y"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.cod"]
    beside = tmp_path / "beside.cod"
    beside.symlink_to("missing.cod")
    atomic_write_bytes(beside, b"made")
    assert beside.is_symlink() and (tmp_path / "missing.cod").read_bytes() == b"made"


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


def test_a_failed_bundle_leaves_no_new_folder_and_keeps_old_files(tmp_path: Path) -> None:
    """forge-custom whose editions/ is blocked by a file: exit 1, no cards/ folder made, old files intact."""
    block = tmp_path / "custom.txt"
    block.write_text("1 Auctioneer\n1 Lightning Bolt\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "editions").write_text("a file where a folder is needed")
    result = CliRunner().invoke(main, ["export", str(block), "--to", "forge-custom", "-o", str(out)])
    assert result.exit_code == 1 and result.output.startswith("error: cannot write")
    assert sorted(p.name for p in out.iterdir()) == ["editions"]

    (out / "editions").unlink()
    first = CliRunner().invoke(main, ["export", str(block), "--to", "forge-custom", "-o", str(out)])
    assert first.exit_code == 0, first.output
    script = out / "cards" / "auctioneer.txt"
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (edition,) = (out / "editions").iterdir()
    edition.unlink()
    os.mkfifo(edition)  # a FIFO where the second file goes
    result = CliRunner().invoke(main, ["export", str(block), "--to", "forge-custom", "-o", str(out)])
    assert result.exit_code != 0 and "named pipe" in result.output
    assert script.read_bytes() == before[script] and stat.S_ISFIFO(os.lstat(edition).st_mode)


def test_a_failed_rename_puts_back_every_old_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second rename fails: the first file is back with its bytes and its own mode (0600 stays)."""
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_bytes(b"old a")
    first.chmod(0o600)
    second.write_bytes(b"old b")
    real_replace = os.replace
    calls: list[str] = []

    def failing_replace(src: str, dst: str) -> None:
        calls.append(str(dst))
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr("cockatrice_ext.fsutil.os.replace", failing_replace)
    with pytest.raises(OSError, match="No space"):
        atomic_write_files({first: b"new a", second: b"new b"})
    monkeypatch.undo()
    assert first.read_bytes() == b"old a" and stat.S_IMODE(os.stat(first).st_mode) == 0o600
    assert second.read_bytes() == b"old b"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_devices_links_and_folders_through_the_cli(tmp_path: Path) -> None:
    """/dev/full is refused and stays a device; a link's target is replaced and the link kept; a dangling
    link (to a file or a folder) into a missing folder is refused, making nothing; a folder where a file
    goes is refused."""
    runner = CliRunner()
    result = runner.invoke(main, ["export", "auction-sample", "--to", "cod", "-o", "/dev/full"])
    assert result.exit_code == 2 and "character device" in result.output
    assert stat.S_ISCHR(os.lstat("/dev/full").st_mode)

    real = tmp_path / "decks" / "real.cod"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.cod"
    link.symlink_to(real)
    assert runner.invoke(main, ["export", "auction-sample", "--to", "cod", "-o", str(link)]).exit_code == 0
    assert link.is_symlink() and real.read_text().startswith("<?xml")
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o666 & ~_umask()
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.cod"]  # no temporary file left

    dangling = tmp_path / "dangling.cod"
    dangling.symlink_to(tmp_path / "nowhere" / "made.cod")
    result = runner.invoke(main, ["export", "auction-sample", "--to", "cod", "-o", str(dangling)])
    assert result.exit_code == 2 and "symbolic link to" in result.output and "nowhere" in result.output
    assert dangling.is_symlink() and not (tmp_path / "nowhere").exists()
    folder_link = tmp_path / "cube-out"
    folder_link.symlink_to(tmp_path / "gone")
    result = runner.invoke(main, ["export", "auction-sample", "--to", "forge-cube", "-o", str(folder_link)])
    assert result.exit_code == 0 and (tmp_path / "gone").is_dir()  # its folder exists: made, as a file is
    deep_link = tmp_path / "deep-out"
    deep_link.symlink_to(tmp_path / "no" / "such" / "cube")
    result = runner.invoke(main, ["export", "auction-sample", "--to", "forge-cube", "-o", str(deep_link)])
    assert result.exit_code == 2 and "does not exist" in result.output and not (tmp_path / "no").exists()

    (tmp_path / "folder.cod").mkdir()
    result = runner.invoke(
        main, ["export", "auction-sample", "--to", "cod", "-o", str(tmp_path / "folder.cod")]
    )
    assert result.exit_code == 2 and "a folder" in result.output


def test_a_failed_stage_leaves_no_folder_it_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Staging the second file fails (disk full): the folder made for the first is gone again."""
    real_fsync = os.fsync
    calls: list[int] = []

    def failing_fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr("cockatrice_ext.fsutil.os.fsync", failing_fsync)
    out = tmp_path / "out"
    with pytest.raises(OSError, match="No space"):
        atomic_write_files({out / "cube" / "c.dck": b"cube", out / "draft" / "c.draft": b"draft"})
    assert list(tmp_path.iterdir()) == []


def test_a_failed_single_rename_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "deck.cod"
    target.write_bytes(b"old")

    def failing_replace(src: str, dst: str) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("cockatrice_ext.fsutil.os.replace", failing_replace)
    with pytest.raises(OSError, match="Input/output"):
        atomic_write_bytes(target, b"new")
    monkeypatch.undo()
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["deck.cod"]


def test_standard_output_that_cannot_be_written_is_one_error_line(tmp_path: Path) -> None:
    """``-o -`` into a full device: one 'error:' line, exit 1, no traceback."""
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "cockatrice_ext", "export", "auction-sample", "--to", "cod", "-o", "-"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=120,
        )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "error: cannot write to standard output: No space left on device"
    ]


def test_a_bundle_into_a_file_is_refused(tmp_path: Path) -> None:
    cube = tmp_path / "cube"
    cube.write_text("precious")
    result = CliRunner().invoke(main, ["export", "auction-sample", "--to", "forge-cube", "-o", str(cube)])
    assert result.exit_code == 2 and "not a folder" in result.output
    assert cube.read_text() == "precious"


@settings(max_examples=60, deadline=None)
@given(
    files=st.dictionaries(
        st.sampled_from(["a", "b", "sub/c", "sub/deep/d", "other/e"]),
        st.tuples(st.booleans(), st.binary(max_size=20)),
        min_size=1,
    ),
    fail_at=st.integers(min_value=1, max_value=12),
    failing=st.sampled_from(["replace", "fsync", "link"]),
)
def test_all_or_nothing_whatever_step_fails(
    files: dict[str, tuple[bool, bytes]], fail_at: int, failing: str
) -> None:
    """Any one step failing leaves the folder exactly as it was (same files, bytes and modes); else every
    file is new."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, (exists, _) in files.items():
            if exists:
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_bytes(b"old " + name.encode())
                (root / name).chmod(0o640)
        before = _snapshot(root)
        real = getattr(os, failing)
        calls: list[object] = []

        def flaky(*args: object) -> object:
            calls.append(args)
            if len(calls) == fail_at:
                raise OSError(28, "No space left on device")
            return real(*args)

        with mock.patch(f"cockatrice_ext.fsutil.os.{failing}", flaky):
            try:
                atomic_write_files({root / name: data for name, (_, data) in files.items()})
            except OSError:
                assert _snapshot(root) == before
                return
        assert {name: (root / name).read_bytes() for name in files} == {n: d for n, (_, d) in files.items()}
        assert not [p for p in root.rglob(".*")]  # nothing staged or kept left behind


def _snapshot(root: Path) -> dict[str, tuple[bytes, int] | None]:
    """Every path under ``root``: a file's bytes and mode, None for a folder."""
    return {
        str(p.relative_to(root)): (p.read_bytes(), stat.S_IMODE(p.stat().st_mode)) if p.is_file() else None
        for p in root.rglob("*")
    }


@pytest.mark.parametrize("fmt", ["cod", "forge-cube"])
def test_a_path_that_cannot_exist_is_one_error_line(tmp_path: Path, fmt: str) -> None:
    """A file where a folder should be, or a name longer than the file system takes: one line, exit 2,
    nothing written (was a traceback)."""
    afile = tmp_path / "afile"
    afile.write_text("mine")
    runner = CliRunner()
    for target, reason in ((afile / "x.cod", "Not a directory"), (tmp_path / ("a" * 300), "too long")):
        result = runner.invoke(main, ["export", "auction-sample", "--to", fmt, "-o", str(target)])
        assert result.exit_code == 2, result.output
        assert reason in result.output and "Traceback" not in result.output
    assert afile.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_a_folder_given_as_the_list_is_said_to_be_one(tmp_path: Path) -> None:
    for command in (["export", str(tmp_path), "--to", "cod"], ["block", "check", str(tmp_path)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2 and "is a folder: give the list or deck file in it" in result.output
