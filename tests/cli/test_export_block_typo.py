"""A BLOCK that names no file and no bundled block offers the files and blocks spelled like it.

Seen as a designer: ``export myblok --to cod`` (a typo, the ``.txt`` left out) said only that no such file or
bundled block exists and listed the bundled blocks; the list beside it, ``myblock.txt``, went unmentioned.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main


@pytest.mark.parametrize(
    ("typed", "offered"),
    [("myblok", "myblock.txt"), ("MyBlock", "myblock.txt"), ("lists/crow.txt", "lists/crows.txt")],
)
def test_a_file_spelled_like_the_block_is_offered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str, offered: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lists").mkdir()
    for name in ("myblock.txt", "myblock.cod", "lists/crows.txt", "other.txt"):
        (tmp_path / name).write_text("1 Opt\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", typed, "--to", "cod"])
    assert result.exit_code == 2
    assert f"(did you mean {offered}? bundled: " in result.stderr
    assert "other.txt" not in result.stderr


def test_a_bundled_block_spelled_alike_is_offered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["export", "auction-sampel", "--to", "cod"])
    assert result.exit_code == 2
    assert "(did you mean auction-sample? bundled: " in result.stderr


def test_nothing_alike_offers_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "myblock.txt").write_text("1 Opt\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", "zzzz", "--to", "cod"])
    assert result.exit_code == 2
    assert "did you mean" not in result.stderr and "no bundled block named 'zzzz' (bundled: " in result.stderr
