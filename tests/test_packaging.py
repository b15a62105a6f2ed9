"""Every package folder is listed in pyproject.toml, so a plain (non-editable) install has it all."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    mapping = config["package-dir"]
    found = set()
    for package, folder in mapping.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            found.add(".".join([package, *rel.parts]) if rel.parts else package)
    assert found - listed == set(), "add these to [tool.setuptools] packages"


def test_fsutil_atomic_write(tmp_path: Path) -> None:
    from cockatrice_ext.fsutil import atomic_write_text

    target = tmp_path / "sub" / "deck.cod"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in target.parent.iterdir()] == ["deck.cod"]
    plain = tmp_path / "plain"
    plain.write_text("x")
    assert target.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777  # not private like mkstemp
