"""The ``cockatrice-ext`` command itself: a group given alone shows its help once, as help."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("words", [[], ["block"], ["stats"], ["server"]])
def test_a_group_alone_prints_its_help_once(words: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cockatrice_ext", *words], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("Usage:") == 1 and "Commands:" in result.stdout
    assert "error" not in result.stderr.lower()
