"""Text deck readers on hostile input: how long one line of each shape takes, and a 16 MB file of them.

A block list or deck file comes from anywhere, and the readers accept up to 16 MB. A few shapes make
regular expressions backtrack: long runs of whitespace, a heading word followed by spaces, many site
markers. For each shape this prints the time per line in the block-list reader (``parse_block_list``)
and the plain-text deck reader (``read_deck``), and what a 16 MB file of such lines would take (a file
stops at its first refused line, so a refused shape costs one line).

Usage::

    python scripts/bench_readers.py
    PYTHONPATH=/path/to/older/checkout python scripts/bench_readers.py   # the same on other code
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from cockatrice_ext.decks.blocklist import parse_block_list
from cockatrice_ext.decks.errors import DeckFormatError
from cockatrice_ext.decks.readers import read_deck

FILE_BYTES = 16 * 1024 * 1024


def shapes(width: int) -> dict[str, str]:
    """Hostile and merely sloppy lines of about ``width`` characters."""
    return {
        "card, spaces inside": "1 Lightning" + " " * (width - 15) + "Bolt",
        "heading word, spaces": "Creatures" + " " * (width - 13) + "(16)",
        "spaces, then a paren": "1 a" + " " * (width - 4) + "(",
        "many foil markers": "1 Sol Ring" + " *F*" * ((width - 10) // 4),
        "Archidekt categories": "1 Sol Ring [" + "a " * ((width - 13) // 2) + "]",
    }


def per_line(read: Callable[[str], object], line: str, lines: int) -> tuple[float, bool]:
    """Seconds per line reading ``lines`` copies of ``line``, and whether the reader refused it."""
    started = time.perf_counter()
    refused = False
    try:
        read((line + "\n") * lines)
    except DeckFormatError:
        refused = True
    elapsed = time.perf_counter() - started
    return elapsed / (1 if refused else lines), refused


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--widths", default="1000,20000", help="line widths to try, comma-separated")
    parser.add_argument("--lines", type=int, default=20, help="copies of an accepted line per measurement")
    args = parser.parse_args()
    readers: dict[str, Callable[[str], object]] = {
        "block list": lambda text: parse_block_list(text, source="bench.txt"),
        "plain deck": lambda text: read_deck(text, source="bench.txt"),
    }
    print(f"{'shape':22} {'width':>6} {'reader':10} {'ms/line':>9} {'16 MB file':>12}  result")
    for width in (int(w) for w in args.widths.split(",")):
        for name, line in shapes(width).items():
            for reader_name, read in readers.items():
                seconds, refused = per_line(read, line, args.lines)
                whole = seconds if refused else seconds * FILE_BYTES / (len(line) + 1)
                result = "refused" if refused else "read"
                figures = f"{seconds * 1000:9.3f} {whole:11.1f}s"
                print(f"{name:22} {len(line):6} {reader_name:10} {figures}  {result}")


if __name__ == "__main__":
    main()
