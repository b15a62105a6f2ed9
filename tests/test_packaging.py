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


def test_protobuf_requirement_matches_the_generated_modules() -> None:
    """The generated modules refuse an older protobuf runtime or another major: so must the install."""
    import re

    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (spec,) = [d for d in dependencies if re.match(r"protobuf\b", d)]
    bounds = dict(re.findall(r"(>=|<)\s*([0-9.]+)", spec))
    generated = {
        re.search(r"Protobuf Python Version: ([0-9.]+)", path.read_text()).group(1)  # type: ignore[union-attr]
        for path in (ROOT / "protocol" / "pb").glob("*_pb2.py")
    }
    (version,) = generated  # one protoc wrote them all
    as_tuple = tuple(int(part) for part in version.split("."))
    assert tuple(int(part) for part in bounds[">="].split(".")) >= as_tuple
    assert bounds["<"] == str(as_tuple[0] + 1)


def _setuptools_at_least(major: int) -> bool:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return int(version("setuptools").split(".")[0]) >= major
    except (PackageNotFoundError, ValueError):
        return False


def test_source_and_wheel_distributions_carry_what_they_promise(tmp_path: Path) -> None:
    """The sdist has the licence, every test, the data scripts and the linked docs; the wheel has the licence
    and the package data but no tests."""
    import shutil
    import subprocess
    import sys
    import tarfile
    import zipfile

    import pytest

    if not _setuptools_at_least(77):
        pytest.skip("building the distributions needs setuptools 77 or later (the build requirement)")
    copy = tmp_path / "src"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".git",
            "*.egg-info",
            "__pycache__",
            ".hypothesis",
            ".pytest_cache",
            ".ruff_cache",
            "build",
            "dist",
        ),
    )
    build = "from setuptools import build_meta as b; b.build_sdist('dist'); b.build_wheel('dist')"
    done = subprocess.run(
        [sys.executable, "-c", build], cwd=copy, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (sdist_path,) = (copy / "dist").glob("*.tar.gz")
    (wheel_path,) = (copy / "dist").glob("*.whl")
    with tarfile.open(sdist_path) as sdist:
        members = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    for needed in (
        "LICENSE",
        "CHANGELOG.md",
        "ARCHITECTURE.md",
        "tests/conftest.py",
        "tests/journal_toys.py",
        "tests/bot/test_commands.py",
        "scripts/build_card_subset.py",
        "scripts/generate_protos.py",
        "docs/benchmarks.md",
    ):
        assert needed in members, needed
    with zipfile.ZipFile(wheel_path) as wheel:
        names = wheel.namelist()
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert "cockatrice_ext/data/allcards.sqlite3" in names
    assert not any(name.startswith("tests/") for name in names)
