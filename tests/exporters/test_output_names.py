"""The file an export names after ``--name``: a name of nothing but characters file names cannot hold is a
usage error (not a traceback), and a long name is cut to fit a file name (255 bytes) by UTF-8 bytes,
between characters, with the atomic write's temporary file short whatever the target's length."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cockatrice_ext.cli import main
from cockatrice_ext.exporters.forge import MAX_STEM_BYTES, safe_file_stem
from cockatrice_ext.fsutil import atomic_write_bytes


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


@pytest.mark.parametrize("name", ["???", "...", "<>", "|", "   "])
@pytest.mark.parametrize("fmt", ["forge", "cod"])
def test_a_name_with_nothing_for_a_file_name_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, fmt: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("export", "-", "--to", fmt, "--name", name, stdin="1 Opt\n")
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "Invalid value for --name" in result.stderr and "-o PATH" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["竜" * 80, "竜" * 200, "a" * 300, "é" * 130, "Ω" * 119 + "x" * 5])
def test_a_long_name_is_cut_by_utf8_bytes_between_characters(name: str) -> None:
    stem = safe_file_stem(name)
    assert len(stem.encode("utf-8")) <= MAX_STEM_BYTES
    assert name.startswith(stem) and stem
    if len(name.encode("utf-8")) <= MAX_STEM_BYTES:
        assert stem == name


@pytest.mark.parametrize("fmt", ["cod", "forge", "text", "arena"])
def test_export_writes_a_file_named_after_a_long_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    monkeypatch.chdir(tmp_path)
    name = "竜" * 80  # 240 bytes in UTF-8, 80 characters
    result = invoke("export", "-", "--to", fmt, "--name", name, stdin="1 Opt\n")
    assert result.exit_code == 0, result.output
    (written,) = tmp_path.iterdir()
    assert written.name.startswith("竜" * 80)
    assert len(os.fsencode(written.name)) <= 255


def test_a_target_near_the_file_name_limit_is_written_atomically(tmp_path: Path) -> None:
    target = tmp_path / ("b" * 251 + ".cod")  # 255 bytes: no room for a temporary name built on it
    atomic_write_bytes(target, b"one")
    atomic_write_bytes(target, b"two")  # replacing it keeps the old one under a second name first
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
