#!/usr/bin/env python3
"""Build the embedded card files ``cockatrice_ext/data/`` from MTGJSON AllPrintings.

``cards.json.gz`` (the default card database):

It holds every card named in the block lists under ``blocks/*.txt`` with all their printings,
the basic lands, the tokens those cards make (MTGJSON ``tokens`` of the sets involved), and the
custom cards of ``blocks/*.xml`` (Cockatrice custom sets; their SHA-256 is recorded so the
loader knows they are current).

``allcards.sqlite3`` (every card and token of AllPrintings, read lazily; see
:mod:`cockatrice_ext.cards.store`): any real block resolves offline, and deck checks (Magic Combat
Rules' "no lands, no planeswalkers, singleton") know any card a player may load.

The output is reproducible: same inputs, same bytes.

Tokens, emblems and dungeons take Cockatrice's names (Magic-Token's ``tokens.xml``, see
:mod:`cockatrice_ext.cards.tokens`).

Usage: python scripts/build_card_subset.py [--allprintings PATH] [--tokens PATH] [--blocks DIR] [--out PATH]
[--check]
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from pathlib import Path

from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml
from cockatrice_ext.cards.embedded import encode_database
from cockatrice_ext.cards.errors import CardDataError, UnknownCard, UnknownCardsError
from cockatrice_ext.cards.model import BASIC_LAND_NAMES, Card, CardDatabase
from cockatrice_ext.cards.mtgjson import read_mtgjson
from cockatrice_ext.cards.resolve import NameIndex
from cockatrice_ext.cards.sources import DATA_FILE, file_digest
from cockatrice_ext.cards.store import STORE_FILE, write_store
from cockatrice_ext.cards.tokens import apply_cockatrice_token_names
from cockatrice_ext.decks.blocklist import read_block_list
from cockatrice_ext.fsutil import atomic_write_bytes

LOGGER = logging.getLogger("build_card_subset")

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(__file__).resolve().parents[2] / "shared"
DEFAULT_ALLPRINTINGS = SHARED / "carddata" / "AllPrintings.json.xz"
DEFAULT_TOKENS = SHARED / "cockatrice" / "tokens-magic-token.xml"


def block_names(blocks: Path) -> list[tuple[Path, str, int, str]]:
    """``(file, name, line, pinned set code)`` for every card line of every block list."""
    out: list[tuple[Path, str, int, str]] = []
    for path in sorted(blocks.glob("*.txt")):
        deck = read_block_list(path)
        for _, entry in deck.entries():
            out.append((path, entry.name, entry.line, entry.set_code.upper()))
    return out


def build_subset(
    allprintings: Path, blocks: Path, full: CardDatabase | None = None
) -> tuple[CardDatabase, dict[str, object]]:
    """The subset database and its ``meta`` (inputs and custom-set digests)."""
    full = full if full is not None else read_mtgjson(allprintings)
    customs = CardDatabase()
    digests: dict[str, str] = {}
    for xml in sorted(blocks.glob("*.xml")):
        customs.merge(read_cockatrice_xml(xml))
        digests[xml.name] = file_digest(xml)
    full_index, custom_index = NameIndex(full), NameIndex(customs)

    wanted: dict[str, Card] = {}
    unknown: list[UnknownCard] = []
    pinned_sets: set[str] = set()
    for path, name, line, set_code in block_names(blocks):
        if set_code:
            pinned_sets.add(set_code)
        card = full_index.find(name)
        if card is None and custom_index.find(name) is not None:
            continue  # merged below from the custom set
        if card is None:
            unknown.append(
                UnknownCard(
                    name=name, line=line, section=path.name, suggestions=tuple(full_index.suggest(name))
                )
            )
            continue
        wanted[card.name] = card
    if unknown:
        raise UnknownCardsError(unknown, source=str(blocks))
    involved_sets = {p.set_code for card in wanted.values() for p in card.printings}
    for name in BASIC_LAND_NAMES:
        basic = full.cards.get(name)
        if basic is None:
            continue
        # a basic land has hundreds of printings: keep the first, the latest, and those of pinned sets
        printings = tuple(
            p
            for i, p in enumerate(basic.printings)
            if p.set_code in pinned_sets or i in (0, len(basic.printings) - 1)
        )
        wanted[name] = Card(
            name=basic.name,
            layout=basic.layout,
            faces=basic.faces,
            color_identity=basic.color_identity,
            printings=printings,
            is_token=basic.is_token,
            related=basic.related,
        )

    token_sets = {
        code for code in full.sets if code[1:] in involved_sets and code.startswith("T")
    } | involved_sets
    subset = CardDatabase(source="default")
    for card in wanted.values():
        subset.cards[card.name] = card
    queue = list(wanted.values())
    while queue:  # tokens, and the tokens those tokens make
        card = queue.pop(0)
        for token_name in card.related:
            token = full.cards.get(token_name)
            if token is None or token_name in subset.cards:
                continue
            printings = tuple(p for p in token.printings if p.set_code in token_sets) or token.printings[:1]
            subset.cards[token_name] = Card(
                name=token.name,
                layout=token.layout,
                faces=token.faces,
                color_identity=token.color_identity,
                printings=printings,
                is_token=token.is_token,
                related=token.related,
            )
            queue.append(subset.cards[token_name])
    used = {p.set_code for card in subset.cards.values() for p in card.printings}
    subset.sets = {code: s for code, s in full.sets.items() if code in used}
    subset.merge(customs)
    subset.link_reverse_related()
    subset.reverse_related = {}
    meta: dict[str, object] = {
        "built_from": allprintings.name,
        "block_lists": sorted(p.name for p in blocks.glob("*.txt")),
        "custom_sets": digests,
    }
    return subset, meta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--allprintings", type=Path, default=DEFAULT_ALLPRINTINGS)
    parser.add_argument(
        "--tokens",
        type=Path,
        default=DEFAULT_TOKENS,
        help="Magic-Token's tokens.xml: Cockatrice's token names",
    )
    parser.add_argument("--blocks", type=Path, default=REPO / "blocks")
    parser.add_argument("--out", type=Path, default=DATA_FILE)
    parser.add_argument("--check", action="store_true", help="exit 1 if an output file would change")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    store_out = args.out.with_name(STORE_FILE.name)
    try:
        full = read_mtgjson(args.allprintings)
        apply_cockatrice_token_names(full, read_cockatrice_xml(args.tokens))
        subset, meta = build_subset(args.allprintings, args.blocks, full)
    except (CardDataError, UnknownCardsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    data = encode_database(subset, meta=meta)
    with tempfile.TemporaryDirectory() as scratch:
        fresh = Path(scratch) / STORE_FILE.name
        write_store(full, fresh, meta={"built_from": args.allprintings.name, "token_names": args.tokens.name})
        store = fresh.read_bytes()
    if args.check:
        stale = [str(path) for path, new in ((args.out, data), (store_out, store))
                 if not path.exists() or path.read_bytes() != new]  # fmt: skip
        if stale:
            print(f"{', '.join(stale)} out of date; run scripts/build_card_subset.py", file=sys.stderr)
            return 1
        print(f"{args.out} and {store_out} are up to date")
        return 0
    atomic_write_bytes(args.out, data)
    atomic_write_bytes(store_out, store)
    print(f"wrote {store_out}: {len(full)} cards, {len(store)} bytes")
    tokens = sum(1 for c in subset.cards.values() if c.is_token)
    printings = sum(len(c.printings) for c in subset.cards.values())
    print(
        f"wrote {args.out}: {len(subset)} cards ({tokens} tokens), {printings} printings, {len(data)} bytes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
