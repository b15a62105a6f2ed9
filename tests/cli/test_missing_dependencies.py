"""A dependency missing from the environment (installed with --no-deps) is one error line, not a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

RUN_WITHOUT = """
import sys
for name in {hidden!r}:
    sys.modules[name] = None  # the import system then raises ModuleNotFoundError for it
from cockatrice_ext.cli import main
main({argv!r})
"""


def run_without(hidden: list[str], argv: list[str]) -> subprocess.CompletedProcess[str]:
    code = RUN_WITHOUT.format(hidden=hidden, argv=argv)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    ("hidden", "argv", "package"),
    [
        (["google"], ["server", "info", "tcp://127.0.0.1:9"], "protobuf"),
        (["lxml", "lxml.etree"], ["cards", "lookup", "Opt", "--card-source", "{xml}"], "lxml"),
    ],
)
def test_a_missing_dependency_is_named_in_one_error_line(
    hidden: list[str], argv: list[str], package: str, tmp_path
):
    xml = tmp_path / "cards.xml"
    xml.write_text(
        '<?xml version="1.0"?><cockatrice_carddatabase version="4"><cards/></cockatrice_carddatabase>'
    )
    done = run_without(hidden, [arg.format(xml=xml) for arg in argv])
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: the package {package} is not installed")


def test_a_missing_module_of_our_own_still_shows_its_traceback():
    done = run_without(["cockatrice_ext.cards.resolve"], ["cards", "lookup", "Opt"])
    assert done.returncode != 0
    assert "Traceback" in done.stderr
