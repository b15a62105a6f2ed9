"""Block lists shipped with the package: auction blocks, pools, cubes and decks for the variant formats.

Each block is a plain block-list ``.txt`` file (see :mod:`cockatrice_ext.decks.blocklist`) whose header
comment says what it is and where it comes from; a block that uses custom cards ships them next to it as
a Cockatrice custom-set ``.xml`` of the same name.

>>> "auction-sample" in list_blocks()
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cockatrice_ext.decks.model import Deck

_SUFFIX = ".txt"


def _folder() -> Path:
    return Path(str(resources.files(__name__)))


def list_blocks() -> list[str]:
    """Names of the bundled blocks (file names without ``.txt``), sorted."""
    return sorted(p.name[: -len(_SUFFIX)] for p in _folder().iterdir() if p.name.endswith(_SUFFIX))


def block_path(name: str) -> Path:
    """The file of bundled block ``name`` (``auction-sample`` or ``auction-sample.txt``).

    Raises KeyError naming the known blocks when there is no such block.
    """
    stem = name[: -len(_SUFFIX)] if name.endswith(_SUFFIX) else name
    if stem not in list_blocks():
        raise KeyError(f"no bundled block {name!r}; known blocks: {', '.join(list_blocks())}")
    return _folder() / f"{stem}{_SUFFIX}"


def custom_cards_path(name: str) -> Path | None:
    """The custom-set ``.xml`` shipped with block ``name``, or None when the block uses only real cards."""
    xml = block_path(name).with_suffix(".xml")
    return xml if xml.is_file() else None


def open_block(name: str) -> Deck:
    """Parse bundled block ``name`` into a :class:`~cockatrice_ext.decks.model.Deck`."""
    from cockatrice_ext.decks.blocklist import read_block_list

    return read_block_list(block_path(name))
