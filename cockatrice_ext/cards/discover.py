"""Find a Cockatrice user's own card database files.

Cockatrice keeps its data in Qt's ``AppLocalDataLocation`` for organisation and application
"Cockatrice" (``SettingsCache::getDataPath``): ``~/.local/share/Cockatrice/Cockatrice`` on
Linux (``$XDG_DATA_HOME`` respected), ``~/Library/Application Support/Cockatrice/Cockatrice``
on macOS, ``%LOCALAPPDATA%/Cockatrice/Cockatrice`` on Windows, or ``<app dir>/data`` for a
portable build. ``settings/paths.ini`` there may point ``cardDatabase``, ``tokenDatabase``,
``spoilerDatabase`` and ``customSets`` elsewhere. Load order follows Cockatrice: cards.xml,
tokens.xml, spoiler.xml, then every ``*.xml`` under customsets/ (recursively through linked folders,
hidden ones skipped, sorted by path).
"""

from __future__ import annotations

import configparser
import os
import sys
from collections.abc import Mapping
from pathlib import Path

ENV_VAR = "COCKATRICE_EXT_CARDS"


def cockatrice_data_dirs(
    *, platform: str | None = None, env: Mapping[str, str] | None = None, home: Path | None = None
) -> list[Path]:
    """Candidate Cockatrice data folders for this OS, most likely first."""
    platform = platform or sys.platform
    env = os.environ if env is None else env
    home = home or Path.home()
    dirs: list[Path] = []
    if platform.startswith("win"):
        for var in ("LOCALAPPDATA", "APPDATA"):
            if env.get(var):
                dirs.append(Path(env[var]) / "Cockatrice" / "Cockatrice")
        dirs.append(home / "AppData" / "Local" / "Cockatrice" / "Cockatrice")
    elif platform == "darwin":
        dirs.append(home / "Library" / "Application Support" / "Cockatrice" / "Cockatrice")
    else:
        if env.get("XDG_DATA_HOME"):
            dirs.append(Path(env["XDG_DATA_HOME"]) / "Cockatrice" / "Cockatrice")
        dirs.append(home / ".local" / "share" / "Cockatrice" / "Cockatrice")
        # Flatpak install
        dirs.append(
            home / ".var" / "app" / "io.github.Cockatrice.cockatrice" / "data" / "Cockatrice" / "Cockatrice"
        )
    return list(dict.fromkeys(dirs))


def _paths_ini(data_dir: Path) -> dict[str, str]:
    ini = data_dir / "settings" / "paths.ini"
    if not ini.is_file():
        return {}
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    try:
        parser.read(ini, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError, OSError):
        return {}
    return dict(parser["paths"]) if parser.has_section("paths") else {}


def cockatrice_card_files(data_dir: Path) -> list[Path]:
    """The card files Cockatrice would load from ``data_dir``, in its load order (existing ones only)."""
    paths = _paths_ini(data_dir)

    def pick(key: str, default: Path) -> Path:
        value = paths.get(key, "").strip().strip('"')
        return Path(value) if value and Path(value).exists() else default

    cards = pick("cardDatabase", data_dir / "cards.xml")
    if not cards.is_file():
        return []
    files = [cards]
    for key, name in (("tokenDatabase", "tokens.xml"), ("spoilerDatabase", "spoiler.xml")):
        path = pick(key, data_dir / name)
        if path.is_file():
            files.append(path)
    custom = pick("customSets", data_dir / "customsets")
    if custom.is_dir():
        files.extend(xml_files_below(custom))
    return files


def xml_files_below(folder: Path) -> list[Path]:
    """Every ``*.xml`` file (any case) below ``folder`` as Cockatrice collects its custom sets
    (``CardDatabaseLoader::collectCustomDatabasePaths``): recursively, following linked folders (each
    real folder once), skipping hidden files and folders, sorted by full path."""
    found: list[Path] = []
    seen: set[str] = set()
    stack = [folder]
    while stack:
        directory = stack.pop()
        real = os.path.realpath(directory)
        if real in seen:
            continue  # a link loop, or a folder linked twice
        seen.add(real)
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir():
                    stack.append(Path(entry.path))
                elif entry.is_file() and entry.name.lower().endswith(".xml"):
                    found.append(Path(entry.path))
            except OSError:
                continue
    return sorted(found, key=str)


def discover_cockatrice_files(**kwargs: object) -> list[Path]:
    """The first Cockatrice installation's card files (see :func:`cockatrice_card_files`), or []."""
    for data_dir in cockatrice_data_dirs(**kwargs):  # type: ignore[arg-type]
        files = cockatrice_card_files(data_dir)
        if files:
            return files
    return []
