"""A broken symbolic link given as the input is said to be one, with where it points, not "no such file,
and no bundled block named ...", which sent a designer looking for a missing file by the link's name."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from cockatrice_ext.cli import main


def test_a_broken_link_is_said_with_its_target(tmp_path: Path, runner: CliRunner) -> None:
    link = tmp_path / "broken.txt"
    link.symlink_to("nonexist.txt")
    result = runner.invoke(main, ["export", str(link), "--to", "cod", "-o", str(tmp_path / "out.cod")])
    assert result.exit_code == 2
    message = " ".join(result.stderr.split())
    assert f"{link} is a broken link: it points to 'nonexist.txt' ({tmp_path / 'nonexist.txt'})" in message
    assert "no bundled block" not in message
    assert not (tmp_path / "out.cod").exists()


def test_a_loop_of_links_is_said_as_one(tmp_path: Path, runner: CliRunner) -> None:
    os.symlink("two", tmp_path / "one")
    os.symlink("one", tmp_path / "two")
    result = runner.invoke(
        main, ["export", str(tmp_path / "one"), "--to", "cod", "-o", str(tmp_path / "o.cod")]
    )
    assert result.exit_code == 2
    assert "a loop of links" in " ".join(result.stderr.split())
